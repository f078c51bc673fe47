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
