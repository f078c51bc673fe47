import { Type, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { errorCodes, type ErrorCode } from '../kernel/errors.ts';
import { problem } from './examples.ts';

/**
 * A string of fixed choices as a plain JSON Schema enum: one readable error ("must be one of …") and one
 * readable OpenAPI entry, where a union of literals gives one error per choice.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

const dateTime = { format: 'date-time', examples: ['2026-11-22T15:04:05.000Z'] };

/** A moment, in RFC 3339 UTC; the description says what happened then. */
export const timestamp = (description: string) => Type.String({ ...dateTime, description });

/** A moment that may not have come: null until it does. */
export const timestampOrNull = (description: string) => Type.Union([Type.String(dateTime), Type.Null()], { description });

/** The Idempotency-Key header of the REST API and the idempotency_key argument of the MCP tools: one key space. */
export const IdempotencyKey = Type.String({
  minLength: 1,
  maxLength: 257,
  description:
    'Makes retries safe: the same key with the same request within 7 days gets the first answer again (marked as replayed) ' +
    'and changes nothing; with another request, 422. 1 to 255 printable characters.',
  examples: ['order-1042-attempt'],
});

export const FieldErrorSchema = Type.Object(
  {
    in: StringEnum(['body', 'query', 'path', 'header'], { description: 'The part of the request the pointer is into' }),
    pointer: Type.String({ description: 'JSON Pointer (RFC 6901) to the offending field', examples: ['/ship_to/zip'] }),
    detail: Type.String({ description: 'What is wrong with the field', examples: ['must match pattern "^[0-9]{5}(-[0-9]{4})?$"'] }),
  },
  { additionalProperties: false },
);

export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'A page describing this kind of problem' }),
    title: Type.String({ description: 'A short summary, the same for every problem with this code' }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status of the answer' }),
    detail: Type.String({ description: 'What went wrong with this request and how to fix it, for a person to read' }),
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(errorCodes),
      description: 'Stable machine-readable code; branch on this, not on title or detail',
    }),
    request_id: Type.String({ description: 'Quote this when asking for help' }),
    errors: Type.Optional(
      Type.Array(FieldErrorSchema, { description: 'For validation_failed, customs_required, customs_invalid, ship_date_out_of_range and insurance_above_limit: the fields at fault, at most 100 (`detail` counts them all)' }),
    ),
    decline_code: Type.Optional(Type.String({ description: "For payment_declined on a card: the issuer's reason as Stripe reports it, such as `insufficient_funds`" })),
  },
  {
    $id: 'Problem',
    title: 'Problem',
    description: 'An RFC 9457 problem document',
    examples: [problem],
  },
);

/** The list envelope every GET collection answers with, of a named schema; its example is a page of the item's first example, or of `example`. */
export function ListOf<T extends TSchema>(item: T, id: string, description: string, example: unknown = item.examples?.[0]) {
  return Type.Object(
    {
      object: Type.Literal('list', { description: 'Always `list`' }),
      data: Type.Array(Type.Ref(item), { description: 'The items of this page' }),
      has_more: Type.Boolean({ description: 'Whether more items follow this page' }),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` to get the next page; null on the last page' }),
    },
    { $id: id, title: id, description, additionalProperties: false, examples: [{ object: 'list', data: [example], has_more: false, next_cursor: null }] },
  );
}

/** A day a parcel is handed to the carrier: POST /rates and POST /shipments take it, a Shipment shows it. */
export const ShipDateInput = Type.String({
  format: 'date',
  description:
    "The day the parcel is handed to the carrier (YYYY-MM-DD), from today to 7 days ahead in the ship-from location's time zone; today when not given. Delivery estimates count from it, the label is dated with it and it goes on that day's manifest. Out of range: 400 `ship_date_out_of_range`",
  examples: ['2026-11-30'],
});
