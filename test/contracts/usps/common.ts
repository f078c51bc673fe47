import { Type } from '@sinclair/typebox';

// Pieces the USPS v3 OpenAPI documents share, written as our own schemas. Source: the USPS developer portal's
// YAMLs as vendored in karrioapi/karrio modules/connectors/usps/vendor/ (README "captured 2026-06-23"), read at
// commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a: domestic-labels.yaml 3.9.13 components Address,
// DomesticAddress, State, Addressee, Phone, Email, DomesticLabelAddress, ErrorMessage (the same shapes recur in
// shipping-options.yaml 3.1.29, addresses.yaml 3.2.3, tracking.yaml 3.2.6 and payments.yaml 3.1.20).

/** The `State` pattern: states, DC, territories, freely associated states and the military AA/AE/AP. */
export const uspsStatePattern =
  '^(AA|AE|AL|AK|AP|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN|MS|MO|MP|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|WA|WV|WI|WY)$';

export const UspsState = Type.String({ minLength: 2, maxLength: 2, pattern: uspsStatePattern });
export const Zip5 = Type.String({ pattern: '^\\d{5}$' });
export const Zip4 = Type.String({ pattern: '^\\d{4}$' });

/**
 * `DomesticLabelAddress` (Address + DomesticAddress + Addressee + phone/email), flattened from its allOf; every
 * part says additionalProperties: true, so this does too. `required` only where the spec requires it.
 */
export function labelAddress(required: boolean) {
  const need = <T extends ReturnType<typeof Type.String>>(t: T) => (required ? t : Type.Optional(t));
  return Type.Object(
    {
      streetAddress: need(Type.String({ minLength: 1, maxLength: 50 })),
      secondaryAddress: Type.Optional(Type.String({ maxLength: 50 })),
      city: need(Type.String({ minLength: 1, maxLength: 28 })),
      state: need(UspsState),
      ZIPCode: need(Zip5),
      ZIPPlus4: Type.Optional(Zip4),
      urbanization: Type.Optional(Type.String({ maxLength: 96 })),
      firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
      lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
      firm: Type.Optional(Type.String({ minLength: 0, maxLength: 50 })),
      phone: Type.Optional(Type.String({ pattern: '^\\+?[1-9][0-9]{7,14}$|^[0-9]{6,15}$' })),
      email: Type.Optional(Type.String({ maxLength: 50, pattern: '^[a-zA-Z0-9_+&*-]+(?:\\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}$', format: 'email' })),
      ignoreBadAddress: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: true },
  );
}

/** `ErrorMessage`: the envelope every v3 API answers a refused request with. */
export const ErrorMessage = Type.Object(
  {
    apiVersion: Type.String(),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      errors: Type.Array(
        Type.Object({
          status: Type.Optional(Type.String()),
          code: Type.Optional(Type.String()),
          title: Type.Optional(Type.String()),
          detail: Type.Optional(Type.String()),
          source: Type.Optional(Type.Object({ parameter: Type.Optional(Type.String()), example: Type.Optional(Type.String()) })),
        }),
      ),
    }),
  },
  { additionalProperties: true },
);

/** A date `mailingDate` as the spec's MailingDate (format date) or MailingDateTime (format date-time). */
export const MailingDate = Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })]);
