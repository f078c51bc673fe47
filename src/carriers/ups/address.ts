import { failure, ok, type AddressCheck, type CarrierResult } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { fitAddressLines, upsLines } from './address-lines.ts';
import { upsCountryOf } from './puerto-rico.ts';
import { xavVersion, type UpsCall } from './wire.ts';

/**
 * Request option 3: validation and classification together, so one call also says home or business (carriers.md
 * 2.7). XAV takes three lines of 100 characters (AddressValidation.yaml), more than Shipping's 35.
 */
export function buildAddressRequest(a: Address): CarrierResult<UpsCall> {
  const lines = fitAddressLines({ address: a }, upsLines.validation);
  if (!lines.ok) return lines;
  const [zip5, zip4] = a.zip.replace('-', '').match(/^(\d{5})(\d{4})?$/)?.slice(1) ?? [a.zip, undefined];
  return ok({
    path: `/api/addressvalidation/${xavVersion}/3`,
    query: { maximumcandidatelistsize: '5' },
    body: {
      XAVRequest: {
        AddressKeyFormat: {
          ...(a.company ? { ConsigneeName: a.company.slice(0, 40).trim() } : {}),
          ...(a.name ? { AttentionName: a.name.slice(0, 40).trim() } : {}),
          AddressLine: lines.value.address,
          PoliticalDivision2: a.city.slice(0, 30),
          PoliticalDivision1: a.state.toUpperCase(),
          PostcodePrimaryLow: zip5,
          ...(zip4 ? { PostcodeExtendedLow: zip4 } : {}),
          // UPS sees Puerto Rico as a country of its own (XAV's supported list names US and PR), as Shipping does.
          CountryCode: upsCountryOf(a),
        },
      },
    },
  });
}

/** Code 1 commercial, 2 residential, 0 unclassified (carriers.md 2.7). */
function residentialOf(classification: unknown): boolean | null {
  const code = asString(at(classification, 'Code'));
  return code === '2' ? true : code === '1' ? false : null;
}

/** A candidate as an address, keeping what XAV does not return (names, phone, email) from the input. */
function candidateAddress(candidate: unknown, input: Address): Address | undefined {
  const key = at(candidate, 'AddressKeyFormat');
  // v1 answers hold AddressLine as one string (carriers.md 2.7).
  const lines = asArray(at(key, 'AddressLine')).map(asString).filter((l): l is string => l !== undefined);
  const city = asString(at(key, 'PoliticalDivision2'));
  const state = asString(at(key, 'PoliticalDivision1'));
  const zip5 = asString(at(key, 'PostcodePrimaryLow'));
  if (lines.length === 0 || !city || !state || !zip5) return undefined;
  const zip4 = asString(at(key, 'PostcodeExtendedLow'));
  const out: Address = { ...input, street1: lines[0]!, city, state, zip: zip4 ? `${zip5}-${zip4}` : zip5 };
  if (lines.length > 1) out.street2 = lines.slice(1).join(' ');
  else delete out.street2;
  return out;
}

/**
 * Exactly one of three empty-tag indicators says how it went; corrections come back as candidates, with no
 * per-field diff (carriers.md 2.7). Candidate may be a single object on v1-style answers.
 */
export function parseAddressResponse(json: unknown, input: Address): CarrierResult<AddressCheck> {
  const response = at(json, 'XAVResponse');
  if (response === undefined || typeof response !== 'object') return failure('carrier_error', 'UPS address answer has no XAVResponse');
  const candidates = asArray(at(response, 'Candidate'));
  const topClassification = at(response, 'AddressClassification');
  if (at(response, 'NoCandidatesIndicator') !== undefined) {
    return ok({
      valid: false,
      address: input,
      residential: null,
      messages: [{ code: 'no_candidates', detail: 'UPS found no address matching this one' }],
    });
  }
  const first = candidates[0];
  const best = first === undefined ? undefined : candidateAddress(first, input);
  const residential = residentialOf(at(first, 'AddressClassification')) ?? residentialOf(topClassification);
  if (at(response, 'ValidAddressIndicator') !== undefined) {
    if (!best) return failure('carrier_error', 'UPS says the address is valid but returned no usable candidate');
    return ok({ valid: true, address: best, residential, messages: [] });
  }
  if (at(response, 'AmbiguousAddressIndicator') !== undefined) {
    // UPS could not tell which of these is meant; picking one for the caller would be a guess, so the address
    // stays as given and the candidates are named for a person to choose.
    const options = candidates.map((c) => candidateAddress(c, input)).filter((c): c is Address => c !== undefined);
    const listed = options.map((o) => [o.street1, o.street2, `${o.city} ${o.state} ${o.zip}`].filter(Boolean).join(', ')).join(' | ');
    return ok({
      valid: false,
      address: input,
      residential: residentialOf(topClassification),
      messages: [{ code: 'ambiguous', detail: `UPS found no exact match; ${options.length} possible: ${listed}` }],
    });
  }
  return failure('carrier_error', 'UPS address answer has none of ValidAddressIndicator, AmbiguousAddressIndicator, NoCandidatesIndicator');
}
