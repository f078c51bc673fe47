import type { FieldError } from '../../kernel/errors.ts';
import { isKnownState, type Address, type AnyAddress } from '../../schemas/address.ts';
import { checkPostalCode, countryInSentence, countryName, hasPostalCodes, isCountryCode, postalCodeExamples, stateRequired, subdivisionCode, subdivisionCodes, usAreas } from './countries.ts';

const field = (pointer: string, detail: string): FieldError => ({ in: 'body', pointer, detail });

// The US rules in the schema's own words: the schema applies them only to a country sent exactly as "US".
const usStatePattern = /^[A-Za-z]{2}$/;
const usZipPattern = /^[0-9]{5}(-?[0-9]{4})?$/;

/** What a country calls the subdivision its addresses need. */
const stateTerms: Readonly<Record<string, string>> = { CA: 'province or territory', AU: 'state or territory', IN: 'state or union territory' };
const stateTerm = (country: string) => stateTerms[country] ?? 'state';

/** The ISO code of the address's country, in upper case; US when it has none. */
export const countryOf = (address: { country?: string }): string => (address.country ?? 'US').toUpperCase();

/** Whether the address is in the US, its territories, freely associated states or military post offices. */
export const isUsAddress = (address: AnyAddress): address is Address => countryOf(address) === 'US';

function usParts(address: AnyAddress, pointer: string, errors: FieldError[]): { state: string | undefined; zip: string | undefined } {
  const state = address.state?.trim().toUpperCase();
  if (state === undefined) errors.push(field(`${pointer}/state`, 'is required'));
  else if (!usStatePattern.test(state)) errors.push(field(`${pointer}/state`, `must match pattern "${usStatePattern.source}"`));
  else if (!isKnownState(state)) errors.push(field(`${pointer}/state`, `"${address.state}" is not a US state or territory code`));
  let zip = address.zip?.trim();
  if (zip === undefined) errors.push(field(`${pointer}/zip`, 'is required'));
  else if (!usZipPattern.test(zip)) errors.push(field(`${pointer}/zip`, `must match pattern "${usZipPattern.source}"`));
  else {
    const digits = zip.replace('-', '');
    zip = digits.length === 9 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
  }
  return { state, zip };
}

/** A fault of an address field: a code for programs and a detail that follows the field's name ("state is required…"). */
export interface Finding {
  code: 'state_required' | 'unknown_state' | 'zip_required' | 'zip_format';
  detail: string;
}

/** The state of an address abroad, as the ISO 3166-2 code where its country needs one, else as sent. */
export function foreignState(country: string, state: string | undefined): { state?: string; finding?: Finding } {
  const name = countryInSentence(country);
  if (!stateRequired.has(country)) return state === undefined ? {} : { state: state.trim() };
  const codes = subdivisionCodes(country);
  if (state === undefined) return { finding: { code: 'state_required', detail: `is required for an address in ${name}: the code of its ${stateTerm(country)}, such as ${codes[0]}` } };
  const code = subdivisionCode(country, state);
  if (code) return { state: code };
  return { state, finding: { code: 'unknown_state', detail: `"${state}" is not a ${stateTerm(country)} of ${name}; give one of ${codes.join(', ')}` } };
}

/** The postal code of an address abroad, written as its country writes it; none is needed where the country has none. */
export function foreignZip(country: string, zip: string | undefined): { zip?: string; finding?: Finding } {
  const name = countryInSentence(country);
  const example = postalCodeExamples[country];
  const like = example ? ` (they look like ${example})` : '';
  if (zip === undefined) return hasPostalCodes(country) ? { finding: { code: 'zip_required', detail: `is required for an address in ${name}${like}` } } : {};
  const checked = checkPostalCode(country, zip);
  if (checked.kind === 'valid') return { zip: checked.code };
  if (checked.kind === 'none') return { zip: zip.trim() };
  return { zip, finding: { code: 'zip_format', detail: `"${zip}" is not a postal code of ${name}${like}` } };
}

/**
 * The address checked for its country and written as carriers expect it: the country code in upper case (a US
 * territory's own code becoming US, with the code as its state); in the US the state in upper case and a ZIP+4 with
 * its dash; elsewhere the state as its ISO 3166-2 code where the country needs one, and the postal code written as
 * the country writes it. Each fault goes to `errors`, at its field's pointer.
 */
export function normalizedAddress(address: AnyAddress, pointer: string, errors: FieldError[]): AnyAddress {
  let country = countryOf(address);
  let state = address.state;
  if (usAreas.has(country)) {
    if (state !== undefined && state.trim().toUpperCase() !== country) {
      errors.push(field(`${pointer}/state`, `is ${state}, but ${country} (${countryName(country)}) is served as a US address with state ${country}: give state ${country} or leave it out`));
    }
    state = country;
    country = 'US';
  }
  if (country === 'US') return { ...address, ...usParts({ ...address, state }, pointer, errors), country };
  if (!isCountryCode(country)) {
    errors.push(field(`${pointer}/country`, `"${address.country}" is not an ISO 3166-1 alpha-2 country code (such as US, CA or GB)`));
    return address;
  }
  const next: AnyAddress = { ...address, country };
  const { state: foreignCode, finding: stateFinding } = foreignState(country, state);
  const { zip, finding: zipFinding } = foreignZip(country, address.zip);
  if (stateFinding) errors.push(field(`${pointer}/state`, stateFinding.detail));
  if (zipFinding) errors.push(field(`${pointer}/zip`, zipFinding.detail));
  if (foreignCode === undefined) delete next.state;
  else next.state = foreignCode;
  if (zip === undefined) delete next.zip;
  else next.zip = zip;
  return next;
}

/** shipd ships from the US only: an origin elsewhere is refused at its country. */
export function usOriginErrors(address: AnyAddress, pointer: string): FieldError[] {
  const country = countryOf(address);
  if (country === 'US' || usAreas.has(country)) return [];
  return [field(`${pointer}/country`, `is ${country}: shipd ships from the United States (its states, territories and military post offices) only`)];
}

/** UPS and FedEx need a recipient abroad to be reachable by phone for customs clearance; so does shipd, before asking either. */
export function recipientPhoneErrors(to: AnyAddress, pointer: string): FieldError[] {
  if (isUsAddress(to) || to.phone) return [];
  return [field(`${pointer}/phone`, `is required for a recipient in ${countryInSentence(countryOf(to))}: UPS and FedEx need a phone number to reach the recipient for customs clearance`)];
}
