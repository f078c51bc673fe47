import { Type } from '@sinclair/typebox';
import { call, container, text } from './common.ts';

// UPS Address Validation - Street Level (XAV), our schema of the request shipd builds, from AddressValidation.yaml
// in UPS-API/api-documentation at commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21):
// POST /addressvalidation/{version}/{requestoption}, server .../api, body XAVRequestWrapper.

/** version "Valid values: - v2" (v1 is the deprecated path's); requestoption 1 validation, 2 classification, 3 both. */
export const xavVersions = ['v2'] as const;

export const xavRequestBody = container({
  XAVRequest: container({
    AddressKeyFormat: container({
      ConsigneeName: Type.Optional(text(40)),
      AttentionName: Type.Optional(text(40)),
      // `maximum: 3` and `maxLength: 100` on the array: three lines of 100 characters at most.
      AddressLine: Type.Optional(Type.Array(text(100), { minItems: 1, maxItems: 3 })),
      PoliticalDivision2: Type.Optional(text(30)),
      PoliticalDivision1: Type.Optional(text(30)),
      PostcodePrimaryLow: Type.Optional(text(10)),
      PostcodeExtendedLow: Type.Optional(text(10)),
      // The API checks "addresses against the United States Postal Service database of valid addresses in the U.S.
      // and Puerto Rico" (its info.description): those two country codes, Puerto Rico's its own.
      CountryCode: Type.Union([Type.Literal('US'), Type.Literal('PR')]),
    }),
  }),
});

/** maximumcandidatelistsize "Valid values: 0 – 50"; regionalrequestindicator "True or False". */
export const xavCall = call(new RegExp(`^/api/addressvalidation/(${xavVersions.join('|')})/[123]$`), {
  query: container({
    maximumcandidatelistsize: Type.Optional(Type.String({ pattern: '^([0-9]|[1-4][0-9]|50)$' })),
    regionalrequestindicator: Type.Optional(Type.Union([Type.Literal('True'), Type.Literal('False')])),
  }),
  body: xavRequestBody,
});
