import { Type } from '@sinclair/typebox';
import { labelAddress, MailingDate } from './common.ts';

// Labels v3: `POST /labels/v3/label`, `POST /labels/v3/return-label`, `DELETE /labels/v3/label/{trackingNumber}`.
// Source: domestic-labels.yaml version 3.9.13 (karrioapi/karrio modules/connectors/usps/vendor/, commit
// deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a, captured 2026-06-23), components LabelRequest, ReturnLabelRequest,
// ImageInfo, PackageDescription, BaseDomesticPackageDescription, DomesticPackageDescription,
// BaseReturnsPackageDescription, ReturnsPackageDescription, DomesticCustomerReference, ExtraService, PackageOptions,
// DomesticPackageOptions, DomesticPackageReturnOptions, and the parameters X-Payment-Authorization-Token and X-Idempotency-Key. shipd always sends the "with rate indicator"
// variant of the packageDescription oneOf, so that is the variant written here.

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const ImageInfo = Type.Object(
  {
    imageType: Type.Optional(literals(['PDF', 'TIFF', 'JPG', 'PNG', 'GIF', 'SVG', 'ZPL203DPI', 'ZPL300DPI', 'EPL300DPI', 'LABEL_BROKER', 'NONE'])),
    labelType: Type.Optional(literals(['4X4LABEL', '4X5LABEL', '4X6LABEL', '6X4LABEL', '2X7LABEL'])),
    receiptOption: Type.Optional(literals(['SAME_PAGE', 'SEPARATE_PAGE', 'NONE'])),
    suppressPostage: Type.Optional(Type.Boolean()),
    suppressMailDate: Type.Optional(Type.Boolean()),
    returnLabel: Type.Optional(Type.Boolean()),
    packageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999 })),
    totalPackages: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999 })),
  },
  { additionalProperties: true },
);

const positive = () => Type.Number({ exclusiveMinimum: 0 });
const processingCategory = literals(['LETTERS', 'FLATS', 'MACHINABLE', 'IRREGULAR', 'NON_MACHINABLE', 'NONSTANDARD']);
const customerReference = Type.Array(
  Type.Object({ referenceNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 30 })), printReferenceNumber: Type.Optional(Type.Boolean()) }, { additionalProperties: true }),
  { minItems: 0, maxItems: 4 },
);
/** `ExtraService`: the codes the Labels spec lists (365 Global Direct Entry … 991 Sunday Delivery); any other is refused. */
export const labelExtraServiceCodes = [
  365, 415, 480, 481, 482, 483, 484, 485, 486, 487, 488, 489, 810, 811, 812, 813, 814, 815, 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826,
  827, 828, 829, 830, 831, 832, 857, 910, 911, 912, 913, 920, 921, 922, 923, 924, 925, 930, 931, 934, 955, 957, 981, 986, 991,
] as const;
const extraServices = Type.Array(Type.Integer({ enum: [...labelExtraServiceCodes] }), { minItems: 0, maxItems: 5 });
/** `PackageOptions` (shared by DomesticPackageOptions and DomesticPackageReturnOptions): packageValue in US dollars. */
const packageOptions = Type.Object({ packageValue: Type.Optional(Type.Number({ minimum: 0 })) }, { additionalProperties: true });

/** `PackageDescription`: the sizes every variant shares. */
const sizes = {
  weightUOM: Type.Optional(Type.Literal('lb')),
  weight: positive(),
  dimensionsUOM: Type.Optional(Type.Literal('in')),
  length: positive(),
  height: positive(),
  width: positive(),
  girth: Type.Optional(positive()),
  hasNonstandardCharacteristics: Type.Optional(Type.Boolean()),
};

export const outboundMailClasses = [
  'PARCEL_SELECT', 'PARCEL_SELECT_LIGHTWEIGHT', 'USPS_CONNECT_LOCAL', 'USPS_CONNECT_REGIONAL', 'USPS_CONNECT_MAIL', 'USPS_GROUND_ADVANTAGE',
  'PRIORITY_MAIL_EXPRESS', 'PRIORITY_MAIL', 'FIRST-CLASS_PACKAGE_SERVICE', 'LIBRARY_MAIL', 'MEDIA_MAIL', 'BOUND_PRINTED_MATTER',
] as const;
export const returnMailClasses = [
  'FIRST-CLASS_PACKAGE_RETURN_SERVICE', 'GROUND_RETURN_SERVICE', 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE', 'PRIORITY_MAIL_RETURN_SERVICE', 'USPS_GROUND_ADVANTAGE_RETURN_SERVICE',
] as const;

const outboundRateIndicators = [
  '3D', '3N', '3R', '5D', 'BA', 'BB', 'CP', 'CM', 'DC', 'DE', 'DF', 'DN', 'DR', 'E4', 'E6', 'FA', 'FB', 'FE', 'FP', 'FS', 'LC', 'LF', 'LL', 'LO', 'LS',
  'NP', 'OS', 'P5', 'P6', 'P7', 'P8', 'P9', 'Q6', 'Q7', 'Q8', 'Q9', 'Q0', 'PA', 'PL', 'PM', 'PR', 'SN', 'SP', 'SR',
];
const returnRateIndicators = ['CP', 'DN', 'DR', 'E4', 'E6', 'FA', 'FB', 'FE', 'FP', 'FS', 'OS', 'P5', 'P6', 'P7', 'P8', 'P9', 'PA', 'PL', 'PM', 'Q6', 'Q7', 'Q8', 'Q9', 'Q0', 'SP'];

/** `DomesticPackageDescription`: BaseDomesticPackageDescription's required fields plus rateIndicator. */
const OutboundPackage = Type.Object(
  {
    ...sizes,
    mailClass: literals(outboundMailClasses),
    processingCategory,
    rateIndicator: literals(outboundRateIndicators),
    destinationEntryFacilityType: literals([
      'NONE', 'DESTINATION_NETWORK_DISTRIBUTION_CENTER', 'DESTINATION_SECTIONAL_CENTER_FACILITY', 'DESTINATION_DELIVERY_UNIT', 'DESTINATION_SERVICE_HUB',
      'DESTINATION_REGIONAL_PROCESSING_DISTRIBUTION_CENTER',
    ]),
    mailingDate: MailingDate,
    customerReference: Type.Optional(customerReference),
    extraServices: Type.Optional(extraServices),
    packageOptions: Type.Optional(packageOptions),
    physicalSignatureRequired: Type.Optional(Type.Boolean()),
    inductionZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
    serialNumberFormat: Type.Optional(literals(['STANDARD', 'EXTENDED'])),
  },
  { additionalProperties: true },
);

/** `ReturnsPackageDescription`: no mailingDate or destination entry required, return classes and indicators only. */
const ReturnPackage = Type.Object(
  {
    ...sizes,
    mailClass: literals(returnMailClasses),
    processingCategory,
    rateIndicator: literals(returnRateIndicators),
    customerReference: Type.Optional(customerReference),
    extraServices: Type.Optional(extraServices),
    packageOptions: Type.Optional(packageOptions),
    inductionZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
  },
  { additionalProperties: true },
);

/** Codes the specs give one mail class (ExtraService: "981 - Signature Requested (PRIORITY_MAIL_EXPRESS only)", "986 - PO to Addressee (PRIORITY_MAIL_EXPRESS only)"). */
export const expressOnlyCodes = [981, 986];

/**
 * What the Labels spec asks of extra services beyond the schema, for the fake to refuse: a value with insurance
 * ("Package value is required when an 'extraServiceCode' value of '930' is provided", PackageOptions; 931 insures
 * more than $500, which cannot be judged without one either); 981 and 986 on Priority Mail Express only; and on an
 * outbound label `physicalSignatureRequired` with 931 or with 930 above $500, and only with the signature and
 * insurance codes the spec lists for it (BaseDomesticPackageDescription.physicalSignatureRequired: "required to
 * include … 910, 911, 912, 913, 921, 922, 923, 924, 925, 931, 934, 955, 981 or an extraServiceCode value of 930 with a
 * packageValue greater than 500").
 */
export function labelExtraServiceFaults(packageDescription: Record<string, unknown>, outbound: boolean): string[] {
  const codes = (packageDescription.extraServices as number[] | undefined) ?? [];
  const value = (packageDescription.packageOptions as { packageValue?: number } | undefined)?.packageValue;
  const faults: string[] = [];
  if ((codes.includes(930) || codes.includes(931)) && value === undefined) faults.push('/packageDescription/packageOptions/packageValue is required with extra service 930 or 931');
  const express = String(packageDescription.mailClass).startsWith('PRIORITY_MAIL_EXPRESS');
  for (const c of codes) if (expressOnlyCodes.includes(c) && !express) faults.push(`/packageDescription/extraServices extra service ${c} is for PRIORITY_MAIL_EXPRESS only`);
  if (!outbound) return faults;
  const signed = codes.some((c) => [910, 911, 912, 913, 921, 922, 923, 924, 925, 931, 934, 955, 981].includes(c)) || (codes.includes(930) && value !== undefined && value > 500);
  const stated = packageDescription.physicalSignatureRequired !== undefined;
  if (signed && !stated) faults.push('/packageDescription/physicalSignatureRequired is required with these extra services');
  if (!signed && stated) faults.push('/packageDescription/physicalSignatureRequired goes only with a signature or insurance above $500');
  return faults;
}

/**
 * `DomesticLabelToAddress`: the label address with the delivery choices of the To address, read again 2026-11-28 in
 * domestic-labels.yaml 3.9.13 at karrioapi/karrio commit e1754707ebcba368deb2be62c72eabbcd4d31723 (the same as at
 * deea10f8): parcelLockerDelivery and holdForPickup (booleans) and facilityId (a string of at most 7 characters,
 * "obtained from the API response in the /post-office-locator API").
 */
const LabelToAddress = Type.Object(
  {
    ...labelAddress(false).properties,
    parcelLockerDelivery: Type.Optional(Type.Boolean()),
    holdForPickup: Type.Optional(Type.Boolean()),
    facilityId: Type.Optional(Type.String({ maxLength: 7 })),
  },
  { additionalProperties: true },
);

/**
 * What Hold for Pickup requires, from the same DomesticLabelToAddress: "If the `holdForPickup` field is set to `true`
 * then the `toAddress` object `facilityID`, `email`, and `phone` fields as well as the `fromAddress` object
 * `firstName`, `lastName`, `email`, and `phone` fields are required", and parcelLockerDelivery's "Parcel lockers are not
 * eligible for Hold for Pickup shipments". Written as the schema's if/then, so a request that breaks it fails validation.
 */
const holdForPickupRequires = {
  if: { properties: { toAddress: { properties: { holdForPickup: { const: true } }, required: ['holdForPickup'] } }, required: ['toAddress'] },
  then: {
    properties: {
      toAddress: { required: ['facilityId', 'email', 'phone'], properties: { parcelLockerDelivery: { const: false } } },
      fromAddress: { required: ['firstName', 'lastName', 'email', 'phone'] },
    },
  },
};

/** `LabelRequest`: closed at the top level (additionalProperties: false). */
export const LabelRequest = Type.Object(
  {
    imageInfo: Type.Optional(ImageInfo),
    // DomesticLabelToAddress lists no required fields of its own; the From address (DomesticLabelAddress) does.
    toAddress: LabelToAddress,
    fromAddress: labelAddress(true),
    senderAddress: Type.Optional(labelAddress(true)),
    returnAddress: Type.Optional(labelAddress(true)),
    packageDescription: OutboundPackage,
    customsForm: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false, ...holdForPickupRequires },
);

/** `ReturnLabelRequest`: closed at the top level too; both addresses are DomesticLabelAddress. */
export const ReturnLabelRequest = Type.Object(
  {
    imageInfo: Type.Optional(ImageInfo),
    toAddress: labelAddress(true),
    fromAddress: labelAddress(true),
    senderAddress: Type.Optional(labelAddress(true)),
    returnAddress: Type.Optional(labelAddress(true)),
    packageDescription: ReturnPackage,
    customsForm: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

/**
 * The headers of both label operations (lower-cased, as Node reads them): X-Payment-Authorization-Token is
 * required, X-Idempotency-Key optional but a UUID (`format: uuid`).
 */
export const LabelHeaders = Type.Object(
  {
    'x-payment-authorization-token': Type.String({ minLength: 1 }),
    'x-idempotency-key': Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: true },
);

/** `DELETE /label/{trackingNumber}`: the path parameter and the payment header (no body). */
export const CancelHeaders = Type.Object({ 'x-payment-authorization-token': Type.String({ minLength: 1 }) }, { additionalProperties: true });
export const CancelPath = Type.Object({ trackingNumber: Type.String({ minLength: 1 }) }, { additionalProperties: false });
