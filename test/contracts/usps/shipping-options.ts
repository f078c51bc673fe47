import { Type } from '@sinclair/typebox';
import { MailingDate } from './common.ts';
import { expressOnlyCodes } from './labels.ts';

// Shipping Options v3 `POST /shipments/v3/options/search`, domestic variant. Source: shipping-options.yaml version
// 3.1.29 (karrioapi/karrio modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a),
// components DomesticOptionsRequest (additionalProperties: false), DomesticPackageDescription,
// ShippingOptionsPackageDescription, DomesticPricingOption (additionalProperties: false), PaymentAccount,
// PriceTypeRequest, OriginZIPCode, DestinationZIPCode, ExtraService (its enum read 2026-11-27).

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const positive = () => Type.Number({ exclusiveMinimum: 0 });
const zip = () => Type.String({ pattern: '^\\d{5}(?:[-\\s]\\d{4})?$' });

export const optionsMailClasses = [
  'PARCEL_SELECT', 'PARCEL_SELECT_LIGHTWEIGHT', 'USPS_CONNECT_LOCAL', 'USPS_CONNECT_REGIONAL', 'USPS_CONNECT_MAIL', 'USPS_GROUND_ADVANTAGE',
  'USPS_GROUND_ADVANTAGE_RETURN_SERVICE', 'PRIORITY_MAIL_EXPRESS', 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_RETURN_SERVICE',
  'FIRST-CLASS_PACKAGE_SERVICE', 'LIBRARY_MAIL', 'MEDIA_MAIL', 'BOUND_PRINTED_MATTER', 'ALL', 'ALL_OUTBOUND', 'ALL_RETURNS',
] as const;

/**
 * `ExtraService` of this spec: the Labels spec's codes and the ones only priced here (452 USPS Returns, the PO Box
 * Locker fees, 853, 856, 858, 915, 917, 940, 941, 972, 984); any other is refused.
 */
export const optionsExtraServiceCodes = [
  365, 415, 452, 480, 481, 482, 483, 484, 485, 486, 487, 488, 489, 498, 500, 501, 502, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821,
  822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832, 853, 856, 857, 858, 910, 911, 912, 913, 915, 917, 920, 921, 922, 923, 924, 925, 930, 931,
  934, 940, 941, 955, 957, 972, 981, 984, 986, 991,
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
        extraServices: Type.Optional(Type.Array(Type.Integer({ enum: [...optionsExtraServiceCodes] }), { minItems: 0, maxItems: 5 })),
        packageValue: Type.Optional(Type.Number({ minimum: 0 })),
        mailingDate: Type.Optional(MailingDate),
      },
      { additionalProperties: true },
    ),
    shippingFilter: Type.Optional(literals(['PRICE', 'SERVICE_STANDARDS'])),
  },
  { additionalProperties: false },
);

/**
 * What the search asks of extra services beyond the schema, for the fake to refuse: "packageValue … Required to
 * receive prices for Insurance" (shipping-options.yaml 3.1.29), and 981 and 986 asked of Priority Mail Express (or its
 * return class) alone, the class the spec gives them.
 */
export function priceExtraServiceFaults(packageDescription: Record<string, unknown>): string[] {
  const codes = (packageDescription.extraServices as number[] | undefined) ?? [];
  const faults = (codes.includes(930) || codes.includes(931)) && packageDescription.packageValue === undefined ? ['/packageDescription/packageValue is required with extra service 930 or 931'] : [];
  const express = String(packageDescription.mailClass).startsWith('PRIORITY_MAIL_EXPRESS');
  for (const c of codes) if (expressOnlyCodes.includes(c) && !express) faults.push(`/packageDescription/extraServices extra service ${c} is for PRIORITY_MAIL_EXPRESS only`);
  return faults;
}
