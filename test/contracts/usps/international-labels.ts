import { Type, type TSchema } from '@sinclair/typebox';
import { labelAddress, MailingDate } from './common.ts';

// International Labels v3: `POST /international-labels/v3/international-label`. Source: USPS's
// international-labels.yaml, info.version 3.2.2, as copied in Thecodergabe/shipstack specs/usps/international-labels_8.yaml
// at commit d44e3ecc3e51e764baba9ec8f13c710467962575 (2026-04-08): components InternationalLabelRequest,
// InternationalLabelAddress (InternationalAddress, Addressee, Phone), DomesticLabelAddress, InternationalPackageDescription
// (PackageDescription), InternationalCustomsForm (CustomsForm), InternationalShippingContents (ShippingContents), ImageInfo,
// ExtraService.
// The spec writes its allOf parts with additionalProperties: false, which would refuse every request; the parts are
// flattened here and closed where the spec means them closed.

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const positive = () => Type.Number({ exclusiveMinimum: 0 });

/** ExtraService: Tracking Plus (480–488), the hazardous materials codes, insurance (930 ≤ $500, 931 > $500), 955. */
export const internationalLabelExtraServices = [480, 481, 482, 483, 484, 486, 487, 488, 813, 820, 826, 857, 930, 931, 955] as const;
const literalCodes = (codes: readonly number[]) => Type.Union(codes.map((c) => Type.Literal(c)));

export const internationalMailClasses = ['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 'PRIORITY_MAIL_INTERNATIONAL', 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL'] as const;

export const customsContentTypes = [
  'MERCHANDISE', 'GIFT', 'DOCUMENT', 'COMMERCIAL_SAMPLE', 'RETURNED_GOODS', 'OTHER', 'HUMANITARIAN_DONATIONS', 'DANGEROUS_GOODS',
  'CREMATED_REMAINS', 'NON_NEGOTIABLE_DOCUMENT', 'MEDICAL_SUPPLIES', 'PHARMACEUTICALS',
] as const;

/** ImageInfo of this API: fewer image types than the domestic one, and 4X6LABEL only. */
const ImageInfo = Type.Object(
  {
    imageType: Type.Optional(literals(['LABEL_BROKER', 'PDF', 'TIFF', 'ZPL203DPI', 'ZPL300DPI', 'NONE'])),
    labelType: Type.Optional(Type.Literal('4X6LABEL')),
    suppressPostage: Type.Optional(Type.Boolean()),
    suppressMailDate: Type.Optional(Type.Boolean()),
    returnLabel: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

/**
 * InternationalLabelAddress: streetAddress, city, country (its name) and countryISOAlpha2Code required; "The First
 * and Last Name or Firm Name are always required"; postalCode at most 11, province 40, phone "including the country
 * extension and area code, with no punctuation".
 */
const InternationalLabelAddress = Type.Object(
  {
    streetAddress: Type.String({ minLength: 1, maxLength: 50 }),
    secondaryAddress: Type.Optional(Type.String({ maxLength: 50 })),
    city: Type.String({ minLength: 1, maxLength: 28 }),
    postalCode: Type.Optional(Type.String({ maxLength: 11 })),
    province: Type.Optional(Type.String({ maxLength: 40 })),
    country: Type.String({ minLength: 1 }),
    countryISOAlpha2Code: Type.String({ pattern: '^[a-zA-Z]{2}$' }),
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    firm: Type.Optional(Type.String({ maxLength: 50 })),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[1-9][0-9]{7,14}$' })),
  },
  { additionalProperties: true, anyOf: [{ required: ['firstName', 'lastName'] }, { required: ['firm'] }] },
);

/**
 * InternationalPackageDescription: the sizes, mail class, processing category, entry facility and mailing date
 * required; "Either packagingType or rate indicator is required"; "Items must weigh 70 pounds (1120 ounces) or less".
 */
const InternationalPackageDescription = Type.Object(
  {
    weightUOM: Type.Optional(Type.Literal('lb')),
    weight: Type.Number({ exclusiveMinimum: 0, maximum: 70 }),
    dimensionsUOM: Type.Optional(Type.Literal('in')),
    length: positive(),
    height: positive(),
    width: positive(),
    girth: Type.Optional(positive()),
    mailClass: literals(internationalMailClasses),
    rateIndicator: Type.Optional(literals(['E4', 'E6', 'FA', 'FB', 'FE', 'FP', 'FS', 'PA', 'PL', 'SP'])),
    packagingType: Type.Optional(literals(['FLAT_RATE_ENVELOPE', 'LEGAL_FLAT_RATE_ENVELOPE', 'PADDED_FLAT_RATE_ENVELOPE', 'SM_FLAT_RATE_BOX', 'MD_FLAT_RATE_BOX', 'LG_FLAT_RATE_BOX', 'VARIABLE'])),
    processingCategory: literals(['LETTERS', 'FLATS', 'MACHINABLE', 'NON_MACHINABLE', 'NONSTANDARD']),
    destinationEntryFacilityType: literals(['NONE', 'INTERNATIONAL_SERVICE_CENTER']),
    mailingDate: MailingDate,
    customerReference: Type.Optional(
      Type.Array(Type.Object({ referenceNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 30 })), printReferenceNumber: Type.Optional(Type.Boolean()) }), { maxItems: 2 }),
    ),
    extraServices: Type.Optional(Type.Array(literalCodes(internationalLabelExtraServices), { maxItems: 3 })),
    inductionZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
    // PackageOptions with InternationalPackageOptions: nonDeliveryOption RETURN, REDIRECT (with redirectAddress) or ABANDON.
    packageOptions: Type.Optional(
      Type.Object(
        {
          packageValue: Type.Optional(Type.Number({ minimum: 0 })),
          nonDeliveryOption: Type.Optional(literals(['RETURN', 'REDIRECT', 'ABANDON'])),
          redirectAddress: Type.Optional(labelAddress(true)),
          immediateManifest: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, if: { properties: { nonDeliveryOption: { const: 'REDIRECT' } }, required: ['nonDeliveryOption'] }, then: { required: ['redirectAddress'] } },
      ),
    ),
  },
  { additionalProperties: false, anyOf: [{ required: ['rateIndicator'] }, { required: ['packagingType'] }] },
);

/** The words ShippingContents.itemDescription says "are not considered valid", in any case. */
const vagueDescription = '^\\s*([Nn][Oo][Nn][Ee]|[Nn][Oo][Tt] [Aa][Pp][Pp][Ll][Ii][Cc][Aa][Bb][Ll][Ee]|[Nn]/[Aa]|[Nn][Uu][Ll][Ll]|[Gg][Ii][Ff][Tt]|[Mm][Ee][Rr][Cc][Hh][Aa][Nn][Dd][Ii][Ss][Ee])\\s*$';

/**
 * InternationalShippingContents: description, quantity and country of origin required; "One of either itemValue and
 * itemWeight or itemTotalValue and itemTotalWeight are required"; values in USD from 0.01 to 999999.99; HS tariff
 * number of 6 to 14 characters.
 */
const Contents = Type.Object(
  {
    itemDescription: Type.String({ minLength: 1, maxLength: 30, not: { pattern: vagueDescription } }),
    itemQuantity: Type.Integer({ minimum: 1, maximum: 9999 }),
    itemValue: Type.Optional(Type.Number({ minimum: 0.01, maximum: 999999.99 })),
    itemTotalValue: Type.Optional(Type.Number({ minimum: 0.01, maximum: 999999.99 })),
    weightUOM: Type.Optional(Type.Literal('lb')),
    itemWeight: Type.Optional(positive()),
    itemTotalWeight: Type.Optional(positive()),
    HSTariffNumber: Type.Optional(Type.String({ minLength: 6, maxLength: 14 })),
    countryofOrigin: Type.String({ pattern: '^[A-Z]{2}$' }),
    itemCategory: Type.Optional(Type.String()),
    itemSubcategory: Type.Optional(Type.String()),
  },
  { additionalProperties: false, anyOf: [{ required: ['itemValue', 'itemWeight'] }, { required: ['itemTotalValue', 'itemTotalWeight'] }] },
);

/**
 * InternationalCustomsForm: AESITN ("USPS requires the ITN or the Exemption"), contents (1 to 30) and
 * customsContentType required; contentComments "Required when customContentType is OTHER", at most 25.
 */
const InternationalCustomsForm = Type.Object(
  {
    contentComments: Type.Optional(Type.String({ maxLength: 25 })),
    restrictionType: Type.Optional(literals(['QUARANTINE', 'SANITARY_INSPECTION', 'PHYTOSANITARY_INSPECTION', 'OTHER'])),
    restrictionComments: Type.Optional(Type.String({ maxLength: 25 })),
    AESITN: Type.String({ minLength: 1, maxLength: 35 }),
    invoiceNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 15 })),
    licenseNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    certificateNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 12 })),
    customsContentType: literals(customsContentTypes),
    contents: Type.Array(Contents, { minItems: 1, maxItems: 30 }),
  },
  {
    additionalProperties: false,
    if: { properties: { customsContentType: { const: 'OTHER' } } },
    then: { required: ['contentComments'] },
  },
);

/** InternationalLabelRequest: closed; customsForm, fromAddress, packageDescription and toAddress required. */
export const InternationalLabelRequest: TSchema = Type.Object(
  {
    imageInfo: Type.Optional(ImageInfo),
    toAddress: InternationalLabelAddress,
    fromAddress: labelAddress(true),
    senderAddress: Type.Optional(labelAddress(true)),
    packageDescription: InternationalPackageDescription,
    customsForm: InternationalCustomsForm,
  },
  { additionalProperties: false },
);

/**
 * What the spec asks of extra services beyond the schema, for the fake to refuse: "Only one USPS Tracking Plus extra
 * service and one Insurance extra service may be selected per package" (InternationalPackageDescription.extraServices),
 * and with insurance the value it is priced by, packageOptions.packageValue ("The merchandise value of the package, in
 * US dollars. Used to calculate Insurance Fees if requested", PackageOptions).
 */
export function internationalExtraServiceFaults(body: { packageDescription?: { extraServices?: number[]; packageOptions?: { packageValue?: number } } }): string[] {
  const codes = body.packageDescription?.extraServices ?? [];
  const faults: string[] = [];
  const insurance = codes.filter((c) => c === 930 || c === 931);
  if (insurance.length > 1) faults.push('/packageDescription/extraServices may hold one insurance extra service (930 or 931)');
  if (codes.filter((c) => c >= 480 && c <= 488).length > 1) faults.push('/packageDescription/extraServices may hold one USPS Tracking Plus extra service');
  if (insurance.length > 0 && body.packageDescription?.packageOptions?.packageValue === undefined) faults.push('/packageDescription/packageOptions/packageValue is required with extra service 930 or 931');
  return faults;
}
