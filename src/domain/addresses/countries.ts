import { createRequire } from 'node:module';
import { iso31662 } from 'iso-3166';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type * as IsoCountries from 'i18n-iso-countries';

// The facts of countries come from maintained packages, never hand-written tables: i18n-iso-countries for the ISO
// 3166-1 codes and their English names, iso-3166 for the ISO 3166-2 subdivisions, postcode-validator for the form of
// each country's postal codes (a country it does not list has none).

const require = createRequire(import.meta.url);
// The package's own entry registers all of its 80 languages; shipd speaks English only.
const isoCountries = require('i18n-iso-countries/index.js') as typeof IsoCountries;
isoCountries.registerLocale(require('i18n-iso-countries/langs/en.json') as IsoCountries.LocaleData);
const alpha2 = new Set(Object.keys(isoCountries.getAlpha2Codes()));

/** Every ISO 3166-1 alpha-2 country code. */
export const countryCodes: readonly string[] = [...alpha2];

/** Whether the code (upper case) is an ISO 3166-1 alpha-2 country code. */
export function isCountryCode(code: string): boolean {
  return alpha2.has(code);
}

/** The country's English short name ("Canada", "United Kingdom"), or the code itself for an unknown one. */
export function countryName(code: string): string {
  return isoCountries.getName(code, 'en') ?? code;
}

/** Names said with "the" in a sentence: "an address in the United Kingdom", "a postal code of the Netherlands". */
const withThe = new Set(['NL', 'PH', 'BS', 'GM', 'MV', 'SC', 'VA', 'CD', 'CG', 'CF', 'DO', 'CZ', 'AE', 'GB', 'US']);

/** The country's name as a sentence says it: "Canada", "the United Kingdom". */
export function countryInSentence(code: string): string {
  const name = countryName(code);
  return withThe.has(code) || / Islands$/.test(name) ? `the ${name}` : name;
}

/**
 * Places with their own ISO 3166-1 code that USPS serves as part of the US, with that code as their state: the
 * territories and the freely associated states (USPS Publication 28, appendix B). Others in ISO's list under the US
 * (UM, the Minor Outlying Islands) have no USPS delivery and stay countries of their own.
 */
export const usAreas: ReadonlySet<string> = new Set(['PR', 'VI', 'GU', 'AS', 'MP', 'FM', 'MH', 'PW']);

/**
 * Countries whose addresses need a state, province or region for carriers to deliver: their postal services and
 * UPS and FedEx ask for it. For the US the USPS state codes apply (isKnownState); for the others their ISO 3166-2
 * subdivision codes.
 */
export const stateRequired: ReadonlySet<string> = new Set(['US', 'CA', 'AU', 'MX', 'BR', 'IN']);

const foldText = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z]/g, '').toLowerCase();

/** The ISO 3166-2 subdivisions of each country that needs a state: their codes and names, found by either. */
const subdivisions = new Map<string, { code: string; name: string }[]>();
for (const s of iso31662) {
  if (!stateRequired.has(s.parent) || s.parent === 'US') continue;
  const list = subdivisions.get(s.parent) ?? [];
  list.push({ code: s.code.slice(s.parent.length + 1), name: s.name });
  subdivisions.set(s.parent, list);
}

/** The subdivision codes of a country that needs a state (CA: AB, BC, …), for messages; empty for other countries. */
export function subdivisionCodes(country: string): string[] {
  return (subdivisions.get(country) ?? []).map((s) => s.code).sort();
}

/**
 * The ISO 3166-2 code of a state given as its code ("ON", "CA-ON") or its name ("Ontario", "Québec"), for a country
 * of `stateRequired`; undefined when it is none of that country's.
 */
export function subdivisionCode(country: string, state: string): string | undefined {
  const list = subdivisions.get(country) ?? [];
  const code = state.trim().toUpperCase().replace(new RegExp(`^${country}-`), '');
  const folded = foldText(state);
  return (list.find((s) => s.code === code) ?? list.find((s) => foldText(s.name) === folded))?.code;
}

/** Whether the country's addresses carry a postal code at all. */
export function hasPostalCodes(country: string): boolean {
  return postcodeValidatorExistsForCountry(country);
}

/**
 * Where each country puts its separator, as its post office writes the code (UPU, Postal addressing systems in member
 * countries): a code typed without it is written with it when that is a code of the country.
 */
const separators: Readonly<Record<string, { at: number; fromEnd?: true; with: string }>> = {
  GB: { at: 3, fromEnd: true, with: ' ' },
  JE: { at: 3, fromEnd: true, with: ' ' },
  GG: { at: 3, fromEnd: true, with: ' ' },
  IM: { at: 3, fromEnd: true, with: ' ' },
  CA: { at: 3, with: ' ' },
  IE: { at: 3, with: ' ' },
  NL: { at: 4, with: ' ' },
  JP: { at: 3, with: '-' },
  BR: { at: 5, with: '-' },
  PL: { at: 2, with: '-' },
  PT: { at: 4, with: '-' },
  SE: { at: 3, with: ' ' },
  CZ: { at: 3, with: ' ' },
  SK: { at: 3, with: ' ' },
  GR: { at: 3, with: ' ' },
};

/** Postal codes as a person would recognize them, for messages: "they look like K1A 0B1". */
export const postalCodeExamples: Readonly<Record<string, string>> = {
  AU: '2000', BR: '01310-100', CA: 'K1A 0B1', DE: '10115', ES: '28013', FR: '75001', GB: 'SW1A 1AA', IE: 'D02 X285', IN: '110001',
  IT: '00184', JP: '100-0001', MX: '06000', NL: '1012 AB', NZ: '6011', PL: '00-950', PT: '1100-148', SE: '114 55', CH: '3003',
};

export type PostalCheck = { kind: 'none' } | { kind: 'valid'; code: string } | { kind: 'invalid' };

/**
 * Checks a postal code against its country's form and writes it as the country does: upper case, single spaces, the
 * separator where it belongs. `none` for a country without postal codes.
 */
export function checkPostalCode(country: string, zip: string): PostalCheck {
  if (!hasPostalCodes(country)) return { kind: 'none' };
  const cleaned = zip.trim().toUpperCase().replace(/\s+/g, ' ');
  const separator = separators[country];
  if (separator) {
    const bare = cleaned.replace(/[ -]/g, '');
    const at = separator.fromEnd ? bare.length - separator.at : separator.at;
    const written = `${bare.slice(0, at)}${separator.with}${bare.slice(at)}`;
    if (at > 0 && at < bare.length && postcodeValidator(written, country)) return { kind: 'valid', code: written };
  }
  // Codes of digits alone are written without spaces ("75 001" is 75001) unless the country puts one in (above).
  const digits = /^[\d ]+$/.test(cleaned) ? cleaned.replace(/ /g, '') : undefined;
  if (digits && postcodeValidator(digits, country)) return { kind: 'valid', code: digits };
  return postcodeValidator(cleaned, country) ? { kind: 'valid', code: cleaned } : { kind: 'invalid' };
}
