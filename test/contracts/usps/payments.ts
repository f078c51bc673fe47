import { Type } from '@sinclair/typebox';

// Payments v3 `POST /payments/v3/payment-authorization`. Source: payments.yaml version 3.1.20 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), components Parties, Role,
// PaymentAccount, CRID, MID, ManifestMID.
const Role = Type.Object(
  {
    roleName: Type.Union(
      ['PAYER', 'RATE_HOLDER', 'LABEL_OWNER', 'SHIPPER', 'MAIL_OWNER', 'PLATFORM', 'RETURN_LABEL_PAYER', 'RETURN_LABEL_RATE_HOLDER', 'RETURN_LABEL_OWNER', 'LABEL_PROVIDER'].map((r) => Type.Literal(r)),
    ),
    CRID: Type.Optional(Type.String({ minLength: 2, maxLength: 18 })),
    MID: Type.Optional(Type.String({ pattern: '^(\\d{6}|\\d{9})$' })),
    manifestMID: Type.Optional(Type.String({ pattern: '^(\\d{6}|\\d{9})$' })),
    accountType: Type.Optional(Type.Union(['EPS', 'PERMIT', 'METER', 'OMAS'].map((t) => Type.Literal(t)))),
    accountNumber: Type.Optional(Type.String()),
    permitNumber: Type.Optional(Type.String()),
    permitZIP: Type.Optional(Type.String({ maxLength: 5 })),
  },
  { additionalProperties: true },
);

export const PaymentAuthorizationRequest = Type.Object({ roles: Type.Array(Role, { minItems: 1 }) }, { additionalProperties: true });
