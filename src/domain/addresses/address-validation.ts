import { createRequire } from 'node:module';
import { isKnownState, type AnyAddress } from '../../schemas/address.ts';
import { lookupZip, zipsOfCity } from '../../carriers/zips.ts';
import { countryOf, foreignState, foreignZip } from './address-rules.ts';
import { countryName, hasPostalCodes, isCountryCode, stateRequired, usAreas } from './countries.ts';

const require = createRequire(import.meta.url);
type Parsed = { number?: string; prefix?: string; street?: string; type?: string; suffix?: string; sec_unit_type?: string; sec_unit_num?: string };
const parseAddress = require('parse-address') as { parseLocation(text: string): Parsed | null };

export interface AddressValidation {
  valid: boolean;
  address: AnyAddress;
  corrections: { field: string; from: string; to: string }[];
  messages: { code: string; detail: string }[];
  residential: boolean;
  /** Each check made, whatever it found. */
  checks: { check: string; detail: string }[];
}

/** USPS Publication 28 secondary unit designators. */
const unitDesignators: Record<string, string> = {
  APARTMENT: 'APT', APT: 'APT', SUITE: 'STE', STE: 'STE', UNIT: 'UNIT', FLOOR: 'FL', FL: 'FL', ROOM: 'RM', RM: 'RM',
  BUILDING: 'BLDG', BLDG: 'BLDG', DEPARTMENT: 'DEPT', DEPT: 'DEPT', '#': '#', SPACE: 'SPC', SPC: 'SPC', LOT: 'LOT',
  TRAILER: 'TRLR', TRLR: 'TRLR', OFFICE: 'OFC', OFC: 'OFC', BASEMENT: 'BSMT', BSMT: 'BSMT', PENTHOUSE: 'PH', PH: 'PH',
  FRONT: 'FRNT', REAR: 'REAR', LOBBY: 'LBBY', UPPER: 'UPPR', LOWER: 'LOWR', PIER: 'PIER', SLIP: 'SLIP', HANGAR: 'HNGR',
};
/** Units that say the address is a business. */
const businessUnits = new Set(['STE', 'FL', 'RM', 'BLDG', 'DEPT', 'OFC', 'LBBY', 'HNGR', 'PIER']);

const clean = (s: string) => s.replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim().toUpperCase();
/** Compares what a person meant, not how it was typed. */
const same = (a: string | undefined, b: string | undefined) => (a ?? '').replace(/[.,\s]+/g, ' ').trim().toUpperCase() === (b ?? '').replace(/[.,\s]+/g, ' ').trim().toUpperCase();

/** Each address field the normalized address changed beyond case and punctuation. */
export function correctionsBetween(input: AnyAddress, address: AnyAddress): AddressValidation['corrections'] {
  const out: AddressValidation['corrections'] = [];
  for (const f of ['street1', 'street2', 'city', 'state', 'zip', 'country'] as const) {
    // A country left out is US, which the schema fills in; it is not a correction.
    if (f === 'country' && input.country === undefined) continue;
    if (!same(input[f], address[f])) out.push({ field: f, from: input[f] ?? '', to: address[f] ?? '' });
  }
  return out;
}

function unit(type: string | undefined, num: string | undefined): string | undefined {
  if (!type) return undefined;
  const t = clean(type).replace(/\s/g, '');
  const designator = t.startsWith('POBOX') ? undefined : (unitDesignators[t] ?? clean(type));
  if (!designator) return undefined;
  return designator === '#' ? `# ${clean(num ?? '')}` : `${designator} ${clean(num ?? '')}`.trim();
}

/** Street lines in USPS style: upper case, standard suffixes and directionals, the unit on its own line. */
/**
 * The street line of a military post office: a unit, PSC or CMR number and a box, or a ship (USPS Publication 28,
 * section 225). It has no house number, and the street parser does not know it.
 */
const militaryLine = /^((UNIT|PSC|CMR) \d+ BOX \d+|(USS|USNS|USCGC) .+)$/;

function normalizeStreet(street1: string, street2: string | undefined, messages: AddressValidation['messages']): { street1: string; street2?: string } {
  const parsed = parseAddress.parseLocation(street1.replace(/,/g, ' '));
  const secondFromLine2 = street2 && street2.trim() ? parseSecondLine(street2) : undefined;
  if (militaryLine.test(clean(street1))) return { street1: clean(street1), ...(street2?.trim() && { street2: secondFromLine2 ?? clean(street2) }) };
  if (!parsed) return { street1: clean(street1), ...(street2?.trim() && { street2: secondFromLine2 ?? clean(street2) }) };
  if (parsed.sec_unit_type && /^P\.?\s*O\.?\s*BOX$/i.test(parsed.sec_unit_type.trim()) && !parsed.street) {
    return { street1: `PO BOX ${clean(parsed.sec_unit_num ?? '')}`, ...(secondFromLine2 && { street2: secondFromLine2 }) };
  }
  if (!parsed.number) messages.push({ code: 'missing_house_number', detail: 'street1 has no house number' });
  if (!parsed.street) messages.push({ code: 'missing_street', detail: 'street1 has no street name' });
  const line1 = [parsed.number, parsed.prefix, parsed.street, parsed.type, parsed.suffix].filter(Boolean).map((p) => clean(p!)).join(' ');
  const unitOnLine1 = unit(parsed.sec_unit_type, parsed.sec_unit_num);
  // The parser can drop words it does not understand ("100 Calle Fortaleza" → "100 CALLE"); an address must
  // never lose a word, so then the line is only cleaned, not rewritten.
  const words = (text: string) => text.split(' ').filter(Boolean).length;
  if (words([line1, unitOnLine1].filter(Boolean).join(' ')) < words(clean(street1))) {
    return { street1: clean(street1), ...(secondFromLine2 && { street2: secondFromLine2 }) };
  }
  const line2 = [unitOnLine1, secondFromLine2].filter(Boolean).join(' ');
  return { street1: line1 || clean(street1), ...(line2 && { street2: line2 }) };
}

function parseSecondLine(text: string): string {
  const match = /^\s*(#|[A-Za-z]+\.?)\s*#?\s*([A-Za-z0-9-]+)\s*$/.exec(text);
  if (match) {
    const designator = unitDesignators[clean(match[1]!).replace(/\s/g, '')];
    if (designator) return designator === '#' ? `# ${clean(match[2]!)}` : `${designator} ${clean(match[2]!)}`;
  }
  if (/^\s*[A-Za-z0-9-]+\s*$/.test(text) && /\d/.test(text)) return `# ${clean(text)}`;
  return clean(text);
}

/** The checks every US address gets offline, as the answer lists them. */
const usChecks: AddressValidation['checks'] = [
  { check: 'street_format', detail: 'street1 parsed and written in USPS Publication 28 style' },
  { check: 'zip_city_state', detail: 'ZIP, city and state checked against each other in the US Census ZIP list' },
];

/**
 * Validates and normalizes an address. One in the US (or a territory sent as a country of its own) is written the way
 * USPS would print it, see validateUsAddress; one elsewhere is checked for its country's form: a country of ISO
 * 3166-1, its state where the country needs one, its postal code's form. Streets abroad are not checked offline.
 */
export function validateAddress(input: AnyAddress): AddressValidation {
  const country = countryOf(input);
  if (country === 'US') return validateUsAddress(input, []);
  if (!usAreas.has(country)) return validateAbroad(input, country);
  const moved = input.state === undefined || clean(input.state) === country;
  const messages = [{ code: 'country_corrected', detail: `${countryName(country)} (${country}) is served as a US address: country US, state ${country}` }];
  if (!moved) messages.push({ code: 'state_corrected', detail: `${input.state} is not ${countryName(country)}; its state is ${country}` });
  return validateUsAddress({ ...input, state: country, country: 'US' }, messages, input);
}

function validateAbroad(input: AnyAddress, country: string): AddressValidation {
  const messages: AddressValidation['messages'] = [];
  const checks: AddressValidation['checks'] = [];
  const name = countryName(country);
  const lines = {
    ...(input.name && { name: clean(input.name) }),
    ...(input.company && { company: clean(input.company) }),
    street1: clean(input.street1),
    ...(input.street2?.trim() && { street2: clean(input.street2) }),
    city: clean(input.city),
  };
  const contact = { ...(input.phone && { phone: input.phone }), ...(input.email && { email: input.email }) };
  const residential = input.residential ?? !input.company;
  if (!isCountryCode(country)) {
    const address = { ...lines, ...(input.state && { state: clean(input.state) }), ...(input.zip && { zip: clean(input.zip) }), country, ...contact, residential };
    checks.push({ check: 'country_code', detail: `${country} looked up in ISO 3166-1: not there` });
    messages.push({ code: 'unknown_country', detail: `${input.country} is not an ISO 3166-1 alpha-2 country code (such as US, CA or GB)` });
    return { valid: false, address, corrections: correctionsBetween(input, address), messages, residential, checks };
  }
  checks.push({ check: 'country_code', detail: `${country} is ${name} in ISO 3166-1` });
  const state = foreignState(country, input.state);
  if (stateRequired.has(country)) checks.push({ check: 'state_code', detail: `state checked against the ISO 3166-2 subdivisions of ${name}` });
  const zip = foreignZip(country, input.zip);
  checks.push({ check: 'postal_code_format', detail: hasPostalCodes(country) ? `postal code checked against the form of those of ${name}` : `${name} has no postal codes` });
  if (state.finding) messages.push({ code: state.finding.code, detail: `state ${state.finding.detail}` });
  if (zip.finding) messages.push({ code: zip.finding.code, detail: `zip ${zip.finding.detail}` });
  if (input.zip !== undefined && !hasPostalCodes(country)) messages.push({ code: 'zip_not_used', detail: `${name} has no postal codes; carriers ignore this one` });
  messages.push({ code: 'street_not_checked', detail: `The street and number were not checked: shipd has no street data for ${name}` });
  const address = {
    ...lines,
    ...(state.state !== undefined && { state: stateRequired.has(country) ? state.state : clean(state.state) }),
    ...(zip.zip !== undefined && { zip: zip.zip }),
    country,
    ...contact,
    residential,
  };
  return { valid: !state.finding && !zip.finding, address, corrections: correctionsBetween(input, address), messages, residential, checks };
}

/**
 * Validates and normalizes a US address the way USPS would print it: street parsing with parse-address, and the
 * ZIP, city and state checked against each other with the Census ZIP list of the zipcodes package. Street-level
 * deliverability (does number 415 exist?) needs the carriers' own data and is not claimed here. `messages` are
 * findings made before; `sent` the address as sent, when `input` already differs from it.
 */
function validateUsAddress(input: AnyAddress, messages: AddressValidation['messages'], sent: AnyAddress = input): AddressValidation {
  const corrections: AddressValidation['corrections'] = [];
  let valid = true;

  const streets = normalizeStreet(input.street1, input.street2, messages);
  let city = clean(input.city);
  let state = clean(input.state ?? '');
  const zipDigits = (input.zip ?? '').replace(/\D/g, '');
  const zip = zipDigits.length === 9 ? `${zipDigits.slice(0, 5)}-${zipDigits.slice(5)}` : zipDigits.slice(0, 5);

  if (!state) {
    valid = false;
    messages.push({ code: 'state_required', detail: 'state is required for a US address' });
  } else if (!isKnownState(state)) {
    valid = false;
    messages.push({ code: 'unknown_state', detail: `${state} is not a US state or territory code` });
  }
  const known = zip ? lookupZip(zip) : undefined;
  if (!zip) {
    valid = false;
    messages.push({ code: 'zip_required', detail: 'zip is required for a US address' });
  } else if (!known) {
    valid = false;
    const suggestions = zipsOfCity(city, state).slice(0, 5).map((z) => z.zip);
    messages.push({ code: 'zip_not_found', detail: `ZIP ${zip.slice(0, 5)} does not exist${suggestions.length ? `; ${city}, ${state} has ${suggestions.join(', ')}` : ''}` });
  } else {
    const zipCity = known.city.toUpperCase();
    const cityExists = zipsOfCity(city, state).length > 0;
    if (known.state !== state) {
      if (city === zipCity) {
        messages.push({ code: 'state_corrected', detail: `ZIP ${known.zip} is in ${known.state}` });
        state = known.state;
      } else {
        valid = false;
        const suggestions = zipsOfCity(city, state).slice(0, 5).map((z) => z.zip);
        messages.push({
          code: 'zip_state_mismatch',
          detail: `ZIP ${known.zip} is in ${zipCity}, ${known.state}, not ${state}${suggestions.length ? `; ${city}, ${state} has ${suggestions.join(', ')}` : ''}`,
        });
      }
    } else if (city !== zipCity) {
      if (cityExists) {
        valid = false;
        const suggestions = zipsOfCity(city, state).slice(0, 5).map((z) => z.zip);
        messages.push({ code: 'zip_city_mismatch', detail: `ZIP ${known.zip} is ${zipCity}, not ${city}; ${city} has ${suggestions.join(', ')}` });
      } else {
        messages.push({ code: 'city_corrected', detail: `ZIP ${known.zip} is ${zipCity}` });
        city = zipCity;
      }
    }
  }
  if (messages.some((m) => m.code === 'missing_house_number' || m.code === 'missing_street')) valid = false;
  if (/UNDELIVERABLE/.test(streets.street1)) {
    valid = false;
    messages.push({ code: 'undeliverable', detail: 'The carriers do not deliver to this address (test-mode magic street)' });
  }

  const address: AnyAddress = {
    ...(input.name && { name: clean(input.name) }),
    ...(input.company && { company: clean(input.company) }),
    street1: streets.street1,
    ...(streets.street2 && { street2: streets.street2 }),
    city,
    state,
    zip,
    country: 'US',
    ...(input.phone && { phone: input.phone }),
    ...(input.email && { email: input.email }),
  };
  corrections.push(...correctionsBetween(sent, address));
  const unitType = streets.street2?.split(' ')[0];
  const residential = input.residential ?? !(input.company || (unitType && businessUnits.has(unitType)));
  return { valid, address: { ...address, residential }, corrections, messages, residential, checks: usChecks };
}
