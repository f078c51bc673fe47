import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

// Pieces every Stripe contract here shares. The source is Stripe's OpenAPI document openapi/spec3.json in the GitHub
// repository stripe/openapi: the current one at commit af5309cae53e5f666f9686dfed306d6d3b5fdc67 (2026-07-29, API
// version 2026-07-29.dahlia, the newest the store holds) and, for the operations' lengths, required parameters and
// enums, the one at e0123a38b40c8d840b4c0469ac0ee1650b6bfea3 (2022-04-12), the newest copy held whole. shipd's
// client, the `stripe` package 23.1.0, pins 2026-10-28.endive (OPENAPI_VERSION v2596); its generated types give the
// parameters and enums as endive has them, and its CHANGELOG.md names what endive changed. Where that touches a
// parameter shipd sends, the file says so and the contract follows endive.
//
// Stripe takes application/x-www-form-urlencoded bodies (query strings for GET) with brackets for nesting:
// `metadata[k]=v`, `expand[0]=a` or `expand[]=a`. The fake parses them into objects, so these schemas describe the
// parsed form, where every value is a string: an integer is its digits, a boolean `true` or `false`.

/** The API version the fake speaks: the one the `stripe` package shipd uses pins. */
export const apiVersion = '2026-10-28.endive';

/**
 * The parameters of one operation. The spec gives every request body `additionalProperties: false` (Stripe answers
 * "Received unknown parameter"); only the parameters shipd sends are listed, so any other is refused too.
 */
export const params = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });

/** `type: string` with the spec's maxLength; Stripe refuses an empty string where a value is required. */
export const text = (maxLength: number): TSchema => Type.String({ minLength: 1, maxLength });

/** An object id in a path or parameter: the spec's `maxLength: 5000`. */
export const id = text(5000);

/** `type: integer`, as form text. */
export const integer = Type.String({ pattern: '^-?[0-9]+$' });

/** `type: boolean`, as form text. */
export const boolean = Type.Union([Type.Literal('true'), Type.Literal('false')]);

/** An `enum` of the spec. */
export const oneOf = (values: readonly string[]): TSchema => Type.Union(values.map((v) => Type.Literal(v)));

/**
 * `metadata`: an object of strings, or "" to unset all keys. Stripe's metadata documentation adds the limits the
 * spec leaves out: 50 keys, key names of 40 characters without square brackets, values of 500 characters.
 */
export const metadata = Type.Union([
  Type.Object({}, { additionalProperties: Type.String({ maxLength: 500 }), propertyNames: { maxLength: 40, pattern: '^[^\\[\\]]+$' }, maxProperties: 50 }),
  Type.Literal(''),
]);

/** `expand`: an array of field paths (items `maxLength: 5000`). */
export const expand = Type.Array(text(5000));

/** A range filter (the spec's `range_query_specs`): gt, gte, lt, lte, each a Unix time. */
export const range = Type.Object(
  { gt: Type.Optional(integer), gte: Type.Optional(integer), lt: Type.Optional(integer), lte: Type.Optional(integer) },
  { additionalProperties: false },
);

/** Currency codes shipd charges in. The spec has `format: currency`; the fake's account settles in usd alone. */
export const currency = oneOf(['usd']);

/** The request as the fake sees it: the path, the headers every call sends, and the parsed form. */
export const call = (path: RegExp, form: TSchema, method: 'GET' | 'POST'): TSchema =>
  Type.Object({
    method: Type.Literal(method),
    path: Type.String({ pattern: path.source }),
    headers: Type.Object({
      // Stripe's own scheme (securitySchemes basicAuth and bearerAuth): a secret or restricted key.
      authorization: Type.String({ pattern: '^(Bearer (sk|rk)_(test|live)_[A-Za-z0-9_]+|Basic [A-Za-z0-9+/]+={0,2})$' }),
      'stripe-version': Type.Literal(apiVersion),
      // Idempotency keys are "up to 255 characters long" (Stripe's idempotency documentation); GETs ignore them.
      ...(method === 'POST' ? { 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) } : {}),
    }),
    form,
  });
