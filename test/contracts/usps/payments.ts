import { Type } from '@sinclair/typebox';

// Payments v3 `POST /payments/v3/payment-authorization`. Source: payments.yaml version 3.1.20 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), components Parties, Role,
// PaymentAccount, CRID, MID, ManifestMID, and the operation's description of what each role must specify.

const roleNames = ['PAYER', 'RATE_HOLDER', 'LABEL_OWNER', 'SHIPPER', 'MAIL_OWNER', 'PLATFORM', 'RETURN_LABEL_PAYER', 'RETURN_LABEL_RATE_HOLDER', 'RETURN_LABEL_OWNER', 'LABEL_PROVIDER'];

/** "When using the X role, the … must be specified", role by role. */
const requiredByRole: [string[], string[]][] = [
  [['PAYER', 'RATE_HOLDER', 'RETURN_LABEL_PAYER', 'RETURN_LABEL_RATE_HOLDER'], ['accountType', 'CRID']],
  [['LABEL_OWNER', 'RETURN_LABEL_OWNER'], ['CRID', 'MID', 'manifestMID']],
  [['SHIPPER', 'MAIL_OWNER', 'PLATFORM'], ['CRID']],
  [['LABEL_PROVIDER'], ['CRID', 'accountNumber', 'accountType']],
];

const roleRules = [
  ...requiredByRole.map(([names, required]) => ({ if: { properties: { roleName: { enum: names } } }, then: { required } })),
  // LABEL_PROVIDER: "the only supported accountType is 'EPS'".
  { if: { properties: { roleName: { const: 'LABEL_PROVIDER' } } }, then: { properties: { accountType: { const: 'EPS' } } } },
  // PaymentAccount: accountNumber "Required when accountType is EPS or METER"; permitNumber and permitZIP "Required
  // when accountType is PERMIT or OMAS".
  { if: { required: ['accountType'], properties: { accountType: { enum: ['EPS', 'METER'] } } }, then: { required: ['accountNumber'] } },
  { if: { required: ['accountType'], properties: { accountType: { enum: ['PERMIT', 'OMAS'] } } }, then: { required: ['permitNumber', 'permitZIP'] } },
];

const mid = Type.String({ pattern: '^(\\d{6}|\\d{9})$' });

const Role = Type.Object(
  {
    roleName: Type.Union(roleNames.map((r) => Type.Literal(r))),
    CRID: Type.Optional(Type.String({ minLength: 2, maxLength: 18 })),
    MID: Type.Optional(mid),
    manifestMID: Type.Optional(mid),
    accountType: Type.Optional(Type.Union(['EPS', 'PERMIT', 'METER', 'OMAS'].map((t) => Type.Literal(t)))),
    accountNumber: Type.Optional(Type.String()),
    permitNumber: Type.Optional(Type.String()),
    permitZIP: Type.Optional(Type.String({ maxLength: 5 })),
  },
  { additionalProperties: true, allOf: roleRules },
);

/**
 * Parties: "The `LABEL_OWNER` Role must be specified. The `PAYER` role must be specified, unless following the PC
 * Postage flow", which the request itself does not show, so only the label owner is required here.
 */
export const PaymentAuthorizationRequest = Type.Object(
  { roles: Type.Array(Role, { minItems: 1, contains: Type.Object({ roleName: Type.Literal('LABEL_OWNER') }) }) },
  { additionalProperties: true },
);
