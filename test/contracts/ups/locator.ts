import { Type } from '@sinclair/typebox';
import { call, container, oneOf, text, transactionHeaders } from './common.ts';

// UPS Locator API, our schema of the requests shipd builds, from Locator.yaml in UPS-API/api-documentation at commit
// e6f36df4da29ac1b448c898a79aac48f653bbb44 (2026-07-21), read 2026-11-28: POST
// /locations/{version}/search/availabilities/{reqOption} (server .../api), body LOCATORRequestWrapper. Required
// elements, lengths and listed values are the spec's; only the elements shipd may send are listed.

/** "Valid values: - v3"; v1 is the deprecated path's. */
export const locatorVersions = ['v3'] as const;

/**
 * reqOption, 1 to 4 characters: "1-Locations … 8 … 16 … 24 … 32 … 40 … 48 … 56 … 64-Search for UPS Access Point
 * Locations". AccessPointSearch is "Applicable for request option 64 only".
 */
export const locatorRequestOptions = ['1', '8', '16', '24', '32', '40', '48', '56', '64'] as const;

/**
 * OriginAddress.AddressKeyFormat: PoliticalDivision1, AddressLine, PostcodePrimaryLow, PoliticalDivision2 and
 * CountryCode required, with the spec's lengths.
 */
const addressKeyFormat = container({
  ConsigneeName: Type.Optional(text(40)),
  AddressLine: text(100),
  AddressLine2: Type.Optional(text(64)),
  AddressLine3: Type.Optional(text(64)),
  PoliticalDivision2: text(50),
  PoliticalDivision1: text(50),
  PostcodePrimaryLow: text(10),
  PostcodeExtendedLow: Type.Optional(text(10)),
  CountryCode: text(2),
});

/**
 * LocationSearchCriteria.AccessPointSearch: PublicAccessPointID 1 to 15 ("It cannot be combined with AccountNumber"),
 * AccessPointStatus "01-Active-available 07-Active-unavailable", AccountNumber 6 to 10.
 */
const accessPointSearch = container(
  {
    PublicAccessPointID: Type.Optional(text(15)),
    AccessPointStatus: Type.Optional(oneOf(['01', '07'])),
    AccountNumber: Type.Optional(text(10, 6)),
  },
  { not: { required: ['PublicAccessPointID', 'AccountNumber'] } },
);

export const locatorRequestBody = container({
  LocatorRequest: container({
    // RequestAction: "The only valid value is 'Locator'". The spec also gives it minLength and maxLength 13, which
    // its one valid value (7 characters) does not keep: the value it names is what is checked.
    Request: container({
      RequestAction: Type.Literal('Locator'),
      TransactionReference: Type.Optional(container({ CustomerContext: Type.Optional(text(512)) })),
    }),
    OriginAddress: container({
      AddressKeyFormat: addressKeyFormat,
      // "Valid values: 1-50, default 10".
      MaximumListSize: Type.Optional(Type.String({ pattern: '^([1-9]|[1-4][0-9]|50)$' })),
    }),
    // Locale: "the 5 digit combination of 2 character language code and 2 character country … separated by an underscore".
    Translate: container({ Locale: Type.Optional(Type.String({ pattern: '^[a-z]{2}_[A-Z]{2}$' })) }),
    // "MI-Miles, KM-Kilometers"; "required for location requests (request option 1)".
    UnitOfMeasurement: Type.Optional(container({ Code: oneOf(['MI', 'KM']) })),
    LocationSearchCriteria: Type.Optional(
      container({
        // "ranges from 1 to 50 with a default value of 5".
        MaximumListSize: Type.Optional(Type.String({ pattern: '^([1-9]|[1-4][0-9]|50)$' })),
        // "Whole numbers only … 5-100 for UnitOfMeasure MI, 5-150 for UnitOfMesaure KM" (checked to 150 here; the unit is beside it).
        SearchRadius: Type.Optional(Type.String({ pattern: '^([5-9]|[1-9][0-9]|1[0-4][0-9]|150)$' })),
        AccessPointSearch: Type.Optional(accessPointSearch),
      }),
    ),
    // SortType "01-Closest Location … 05-Earliest Open Time", 1 to 2 characters.
    SortCriteria: Type.Optional(container({ SortType: Type.Optional(oneOf(['01', '02', '03', '04', '05'])) })),
  }),
});

/**
 * The whole call. AccessPointSearch is "Applicable for request option 64 only"; the Locale query defaults to en_US;
 * the transId and transactionSrc headers are optional ("Length 32", "Length 512").
 */
export const locatorCall = Type.Intersect([
  call(new RegExp(`^/api/locations/(${locatorVersions.join('|')})/search/availabilities/(${locatorRequestOptions.join('|')})$`), {
    query: container({ Locale: Type.Optional(Type.String({ pattern: '^[a-z]{2}_[A-Z]{2}$' })) }),
    headers: Type.Object({ transId: Type.Optional(transactionHeaders.transId), transactionSrc: Type.Optional(transactionHeaders.transactionSrc) }),
    body: locatorRequestBody,
  }),
  Type.Unsafe({
    if: { properties: { path: { not: { pattern: '/64$' } } } },
    then: { properties: { body: { properties: { LocatorRequest: { properties: { LocationSearchCriteria: { not: { required: ['AccessPointSearch'] } } } } } } } },
  }),
]);
