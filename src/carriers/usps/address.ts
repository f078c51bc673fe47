import { ok, type AddressCheck, type CarrierResult } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { readProblem } from './errors.ts';
import { splitAt, splitZip } from './fields.ts';

export const addressPath = '/addresses/v3/address';

/** The query USPS validates: street and state always, and both city and ZIP when we have them (carriers.md 3.6). */
export function buildAddressQuery(a: Address): Record<string, string | undefined> {
  const zip = splitZip(a.zip);
  return {
    // The published query takes a firm of 50 characters at most (addresses.yaml 3.2.3, parameter firm).
    firm: a.company?.trim() ? splitAt(a.company, 50)[0] : undefined,
    streetAddress: a.street1,
    secondaryAddress: a.street2?.trim() || undefined,
    city: a.city,
    state: a.state.toUpperCase(),
    ZIPCode: zip.ZIPCode,
    ZIPPlus4: zip.ZIPPlus4,
  };
}

/**
 * DPVConfirmation: Y confirmed; S the building confirmed, the unit given but not confirmed; D the building
 * confirmed, its unit missing; N not a delivery point. Y and S can be delivered to.
 */
const deliverable = new Set(['Y', 'S']);
const dpvMessages: Record<string, string> = {
  S: 'The apartment or suite could not be confirmed',
  D: 'The building needs an apartment or suite number',
  N: 'USPS does not deliver to this address',
};

/**
 * Message codes are USPS's own, unprefixed: the domain names the carrier in front of them (address-check.ts makes
 * `no_match` into `usps_no_match`).
 */
const messagesOf = (list: unknown, kind: string) =>
  asArray(list).flatMap((m) => {
    const detail = asString(at(m, 'text'));
    return detail ? [{ code: `${kind}_${asString(at(m, 'code')) ?? 'none'}`, detail }] : [];
  });

const words = (text: string): string[] => text.toUpperCase().match(/[A-Z0-9]+/g) ?? [];

/**
 * Whether USPS wrote the unit of `street2` at the end of its standardized street ("350 5TH AVE APT 4B" for "350
 * 5th Ave" + "Apartment 4B"), as it does when it answers with no secondaryAddress: the unit's number ends both.
 */
function foldedInto(street: string, street2: string): boolean {
  const unit = words(street2).at(-1);
  const streetWords = words(street);
  return unit !== undefined && streetWords.length > 1 && streetWords.at(-1) === unit;
}

/** The one standardized address USPS answers with (it gives no candidate list), upper-cased as USPS writes it. */
export function parseAddress(json: unknown, input: Address): CarrierResult<AddressCheck> {
  const a = at(json, 'address');
  const dpv = asString(at(json, 'additionalInfo', 'DPVConfirmation'))?.toUpperCase();
  const business = asString(at(json, 'additionalInfo', 'business'))?.toUpperCase();
  const zip = asString(at(a, 'ZIPCode'));
  const plus4 = asString(at(a, 'ZIPPlus4'));
  const street1 = asString(at(a, 'streetAddress')) ?? input.street1;
  const street2 = asString(at(a, 'secondaryAddress')) ?? (input.street2 && !foldedInto(street1, input.street2) ? input.street2 : undefined);
  const address: Address = {
    ...(input.name ? { name: input.name } : {}),
    ...((asString(at(json, 'firm')) ?? input.company) ? { company: asString(at(json, 'firm')) ?? input.company } : {}),
    street1,
    ...(street2 ? { street2 } : {}),
    city: asString(at(a, 'city')) ?? input.city,
    state: asString(at(a, 'state')) ?? input.state,
    zip: zip ? (plus4 ? `${zip}-${plus4}` : zip) : input.zip,
    country: 'US',
    ...(input.phone ? { phone: input.phone } : {}),
    ...(input.email ? { email: input.email } : {}),
  };
  const messages = [
    ...(dpv && dpvMessages[dpv] ? [{ code: `dpv_${dpv}`, detail: dpvMessages[dpv] }] : []),
    ...messagesOf(at(json, 'corrections'), 'correction'),
    ...messagesOf(at(json, 'warnings'), 'warning'),
  ];
  return ok({
    // No DPV answer at all with an address returned still means USPS matched it.
    valid: dpv === undefined ? a !== undefined : deliverable.has(dpv),
    address,
    // business Y/N is the only hint USPS gives (carriers.md 3.6); N is read as a home.
    residential: business === 'Y' ? false : business === 'N' ? true : null,
    messages,
  });
}

/** A 404 is USPS's way of saying the address matched nothing, or too many things: an invalid address, not an outage. */
export function parseAddressNotFound(json: unknown, input: Address): CarrierResult<AddressCheck> {
  const problem = readProblem(json);
  const detail = problem?.message ?? problem?.errors[0]?.detail ?? 'There is no match for the address requested.';
  return ok({ valid: false, address: input, residential: null, messages: [{ code: 'no_match', detail }] });
}
