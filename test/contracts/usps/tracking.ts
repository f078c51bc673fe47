import { Type } from '@sinclair/typebox';

// Tracking v3 `GET /tracking/v3/tracking/{trackingNumber}`. Source: tracking.yaml version 3.2.6 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), operation get-package-tracking:
// the path parameter and every query parameter the operation declares (expand SUMMARY|DETAIL, destinationZIPCode
// 5 digits, mailingDate a date); anything else is not a parameter of this operation.
export const TrackingPath = Type.Object({ trackingNumber: Type.String({ minLength: 1 }) }, { additionalProperties: false });
export const TrackingQuery = Type.Object(
  {
    expand: Type.Optional(Type.Union([Type.Literal('SUMMARY'), Type.Literal('DETAIL')])),
    destinationZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
    mailingDate: Type.Optional(Type.String({ format: 'date' })),
  },
  { additionalProperties: false },
);

// Tracking v3r2 `POST /tracking/v3r2/tracking`. Source: tracking-v3r2_4.yaml, info.version 3.2.2 (Thecodergabe/shipstack
// specs/usps/, commit 5b975df4144e304644c217bf413138879b77dd7b), schema TrackingRequest: an array of 1 to 35
// TrackingRequestBody, each a trackingNumber ("alphanumeric characters, string length is between 4 and 34") with an
// optional mailingDate (a date) and destinationZIPCode (5 digits), nothing else.
export const TrackingBatchRequest = Type.Array(
  Type.Object(
    {
      trackingNumber: Type.String({ minLength: 4, maxLength: 34, pattern: '^[A-Za-z0-9]+$' }),
      mailingDate: Type.Optional(Type.String({ format: 'date' })),
      destinationZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 35 },
);
