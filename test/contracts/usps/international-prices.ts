import { Type } from '@sinclair/typebox';

// International Prices v3: `POST /international-prices/v3/base-rates-list/search`. Source: USPS's
// international-prices.yaml, info.version 3.3.5, as copied in Thecodergabe/shipstack specs/usps/international-prices_4.yaml
// at commit d44e3ecc3e51e764baba9ec8f13c710467962575 (2026-04-08): component InternationalRateListQuery (closed:
// additionalProperties false) with originZIPCode, weightPounds, length/width/height, internationalPriceType, mailingDate.

const rateListFields = {
  originZIPCode: Type.String({ pattern: '^\\d{5}(?:[-\\s]\\d{4})?$' }),
  foreignPostalCode: Type.Optional(Type.String()),
  destinationCountryCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  weight: Type.Number({ exclusiveMinimum: 0 }),
  mailingDate: Type.Optional(Type.String({ format: 'date' })),
  length: Type.Number({ exclusiveMinimum: 0 }),
  width: Type.Number({ exclusiveMinimum: 0 }),
  height: Type.Number({ exclusiveMinimum: 0 }),
  priceType: Type.Optional(Type.Union(['RETAIL', 'COMMERCIAL', 'COMMERCIAL_BASE', 'COMMERCIAL_PLUS', 'CONTRACT'].map((v) => Type.Literal(v)))),
  mailClass: Type.Optional(
    Type.Union(['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 'PRIORITY_MAIL_INTERNATIONAL', 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL', 'GLOBAL_EXPRESS_GUARANTEED', 'ALL'].map((v) => Type.Literal(v))),
  ),
  accountType: Type.Optional(Type.Union(['EPS', 'PERMIT', 'METER'].map((v) => Type.Literal(v)))),
  accountNumber: Type.Optional(Type.String({ pattern: '^\\d+$' })),
};

export const InternationalRateListQuery = Type.Object(rateListFields, { additionalProperties: false });

/** The extra service codes of the international prices (ExtraServiceRateQuery, TotalRatesQuery, ExtraServiceRateDetails_inner). */
export const internationalPriceExtraServices = [370, 813, 820, 826, 857, 930, 931, 955] as const;

// `POST /international-prices/v3/total-rates/search`, same source: TotalRatesQuery is allOf InternationalRateListQuery
// and {itemValue (number, minimum 0, "Required for Insurance and Registered Mail"), extraServices (the codes above,
// at most 10)}. The first part says additionalProperties: false, which read literally would refuse the second part's
// own fields; the two are flattened here and closed.
export const TotalRatesQuery = Type.Object(
  {
    ...rateListFields,
    itemValue: Type.Optional(Type.Number({ minimum: 0 })),
    extraServices: Type.Optional(Type.Array(Type.Union(internationalPriceExtraServices.map((c) => Type.Literal(c))), { maxItems: 10 })),
  },
  { additionalProperties: false },
);

/** What the total-rates search asks beyond the schema, for the fake to refuse: a value with insurance (itemValue). */
export function totalRatesFaults(query: { extraServices?: number[]; itemValue?: number }): string[] {
  const insured = (query.extraServices ?? []).some((c) => c === 930 || c === 931);
  return insured && query.itemValue === undefined ? ['/itemValue is required with extra service 930 or 931 ("Required for Insurance")'] : [];
}
