import { Type } from '@sinclair/typebox';
import { MailingDate } from './common.ts';

// Shipping Options v3 `POST /shipments/v3/options/search`, domestic variant. Source: shipping-options.yaml version
// 3.1.29 (karrioapi/karrio modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a),
// components DomesticOptionsRequest (additionalProperties: false), DomesticPackageDescription,
// ShippingOptionsPackageDescription, DomesticPricingOption (additionalProperties: false), PaymentAccount,
// PriceTypeRequest, OriginZIPCode, DestinationZIPCode, ExtraService.

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const positive = () => Type.Number({ exclusiveMinimum: 0 });
const zip = () => Type.String({ pattern: '^\\d{5}(?:[-\\s]\\d{4})?$' });

export const optionsMailClasses = [
  'PARCEL_SELECT', 'PARCEL_SELECT_LIGHTWEIGHT', 'USPS_CONNECT_LOCAL', 'USPS_CONNECT_REGIONAL', 'USPS_CONNECT_MAIL', 'USPS_GROUND_ADVANTAGE',
  'USPS_GROUND_ADVANTAGE_RETURN_SERVICE', 'PRIORITY_MAIL_EXPRESS', 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_RETURN_SERVICE',
  'FIRST-CLASS_PACKAGE_SERVICE', 'LIBRARY_MAIL', 'MEDIA_MAIL', 'BOUND_PRINTED_MATTER', 'ALL', 'ALL_OUTBOUND', 'ALL_RETURNS',
] as const;

const PricingOption = Type.Object(
  {
    priceType: Type.Optional(literals(['RETAIL', 'COMMERCIAL', 'CONTRACT'])),
    paymentAccount: Type.Optional(
      Type.Object(
        { accountType: Type.Optional(literals(['EPS', 'PERMIT', 'METER', 'MID'])), accountNumber: Type.Optional(Type.String()), CRID: Type.Optional(Type.String()) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: false },
);

export const DomesticOptionsRequest = Type.Object(
  {
    pricingOptions: Type.Array(PricingOption, { minItems: 1 }),
    originZIPCode: zip(),
    destinationZIPCode: zip(),
    destinationEntryFacilityType: Type.Optional(
      literals([
        'NONE', 'DESTINATION_NETWORK_DISTRIBUTION_CENTER', 'DESTINATION_SECTIONAL_CENTER_FACILITY', 'DESTINATION_DELIVERY_UNIT', 'DESTINATION_SERVICE_HUB',
        'DESTINATION_REGIONAL_PROCESSING_DISTRIBUTION_CENTER',
      ]),
    ),
    packageDescription: Type.Object(
      {
        weight: positive(),
        length: positive(),
        height: positive(),
        width: positive(),
        girth: Type.Optional(positive()),
        hasNonstandardCharacteristics: Type.Optional(Type.Boolean()),
        mailClass: literals(optionsMailClasses),
        extraServices: Type.Optional(Type.Array(Type.Integer(), { minItems: 0, maxItems: 5 })),
        packageValue: Type.Optional(Type.Number({ minimum: 0 })),
        mailingDate: Type.Optional(MailingDate),
      },
      { additionalProperties: true },
    ),
    shippingFilter: Type.Optional(literals(['PRICE', 'SERVICE_STANDARDS'])),
  },
  { additionalProperties: false },
);

/** What the search asks of insurance beyond the schema, for the fake to refuse: "packageValue … Required to receive prices for Insurance" (shipping-options.yaml 3.1.29). */
export function priceInsuranceFaults(packageDescription: Record<string, unknown>): string[] {
  const codes = (packageDescription.extraServices as number[] | undefined) ?? [];
  return (codes.includes(930) || codes.includes(931)) && packageDescription.packageValue === undefined ? ['/packageDescription/packageValue is required with extra service 930 or 931'] : [];
}
