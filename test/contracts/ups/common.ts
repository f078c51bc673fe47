import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

// Pieces every UPS contract here shares. The sources are UPS's OpenAPI documents in the GitHub repository
// UPS-API/api-documentation at commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21); their `info.version`
// is empty, so the commit is the version. Each API's file names the document it mirrors.

/**
 * A container as UPS defines it. UPS ignores an element it does not define at a place, so an element sent in the
 * wrong container is silently lost (a return flag in the wrong place buys an outbound label): our schemas refuse
 * every element the spec does not define there. Only the elements shipd may send are listed.
 */
export const container = <P extends TProperties>(properties: P, options: object = {}): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** A string with the spec's minLength/maxLength. */
export const text = (max: number, min = 1, options: object = {}): TSchema => Type.String({ minLength: min, maxLength: max, ...options });

/** UPS's empty-tag indicators: presence is the flag, "any value inside is ignored". */
export const indicator = Type.String();

/** One of the values the spec's description lists ("Valid values: …"); the specs give them as prose, not enums. */
export const oneOf = (values: readonly string[]): TSchema => Type.Union(values.map((v) => Type.Literal(v)));

/**
 * An HTTP call as our adapters build it and the fake receives it: the path with its version and option
 * segments, the query, the headers the spec names, and the JSON body.
 */
export const call = (path: RegExp, parts: { query?: TSchema; headers?: TSchema; body?: TSchema }): TSchema =>
  Type.Object({
    path: Type.String({ pattern: path.source }),
    ...(parts.query ? { query: Type.Optional(parts.query) } : {}),
    ...(parts.headers ? { headers: parts.headers } : {}),
    ...(parts.body ? { body: parts.body } : {}),
  });

/**
 * AddressLine: the specs give `type: array`, `maximum: 3` and `maxLength: 35` on the array, and say "Up to three
 * occurrences are allowed" and "35 characters are accepted": three lines at most, 35 characters each.
 */
export const addressLines = (perLine: number): TSchema => Type.Array(text(perLine), { minItems: 1, maxItems: 3 });

/** A 6-character UPS account (shipper) number: "Must be six alphanumeric characters". */
export const accountNumber = Type.String({ pattern: '^[A-Za-z0-9]{6}$' });

/** Phone numbers: "Valid values are 0 - 9", 15 at most. */
export const phone = container({ Number: Type.String({ pattern: '^[0-9]{1,15}$' }), Extension: Type.Optional(text(4)) });

/** The spec's `transId` and `transactionSrc` headers: "An identifier unique to the request. Length 32", "Length 512". */
export const transactionHeaders = {
  transId: Type.String({ minLength: 1, maxLength: 32 }),
  transactionSrc: Type.String({ minLength: 1, maxLength: 512 }),
};

/**
 * PackageServiceOptions.DeliveryConfirmation in both APIs: DCISType "Valid values: 1 - Unsupported 2 - Delivery
 * Confirmation Signature Required 3 - Delivery Confirmation Adult Signature Required", one character. The unsupported
 * 1 is left out, as UPS refuses it.
 */
export const deliveryConfirmation = (extra: TProperties = {}) => container({ DCISType: oneOf(['2', '3']), ...extra });

/**
 * DryIceWeight.Weight: "Should be more than 0.0. Valid characters are 0-9 and "." … Limit to 1 digit after the
 * decimal. The maximum length of the field is 5 including "."". Its being no more than the package's weight is checked
 * by the fake, which sees both.
 */
export const dryIceWeight = Type.String({ maxLength: 5, pattern: '^(?=.*[1-9])\\d{1,5}(\\.\\d)?$' });

/** PackageServiceOptions.DryIce.RegulationSet: "The following values are valid: CFR, IATA and ADR". */
export const dryIceRegulationSets = ['CFR', 'IATA', 'ADR'] as const;

/**
 * The ShipmentServiceOptions shipd sends with delivery options, in both APIs: the shipment's DeliveryConfirmation, SaturdayDeliveryIndicator,
 * UPScarbonneutralIndicator and RestrictedArticles.AlcoholicBeveragesIndicator, each an empty-tag indicator.
 */
export const optionIndicators = {
  // ShipmentServiceOptions_DeliveryConfirmation: DCISType required, one character, "1 - Delivery Confirmation
  // Signature Required 2 - Delivery Confirmation Adult Signature Required", "Valid for forward shipments only".
  DeliveryConfirmation: Type.Optional(container({ DCISType: oneOf(['1', '2']), DCISNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 11 })) })),
  SaturdayDeliveryIndicator: Type.Optional(indicator),
  UPScarbonneutralIndicator: Type.Optional(indicator),
  RestrictedArticles: Type.Optional(container({ AlcoholicBeveragesIndicator: Type.Optional(indicator) })),
};
