import { Type } from '@sinclair/typebox';

// International Prices v3: `POST /international-prices/v3/base-rates-list/search`. Source: USPS's
// international-prices.yaml, info.version 3.3.5, as copied in Thecodergabe/shipstack specs/usps/international-prices_4.yaml
// at commit d44e3ecc3e51e764baba9ec8f13c710467962575 (2026-04-08): component InternationalRateListQuery (closed:
// additionalProperties false) with originZIPCode, weightPounds, length/width/height, internationalPriceType, mailingDate.

export const InternationalRateListQuery = Type.Object(
  {
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
  },
  { additionalProperties: false },
);
