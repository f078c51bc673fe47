import { createRequire } from 'node:module';
import type { Address } from '../../schemas/address.ts';
import { isKnownState } from '../../schemas/address.ts';
import { lookupZip, zipsOfCity } from '../../carriers/zips.ts';

const require = createRequire(import.meta.url);
type Parsed = { number?: string; prefix?: string; street?: string; type?: string; suffix?: string; sec_unit_type?: string; sec_unit_num?: string };
const parseAddress = require('parse-address') as { parseLocation(text: string): Parsed | null };

export interface AddressValidation {
  valid: boolean;
  address: Address;
  corrections: { field: string; from: string; to: string }[];
  messages: { code: string; detail: string }[];
  residential: boolean;
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
export function correctionsBetween(input: Address, address: Address): AddressValidation['corrections'] {
  const out: AddressValidation['corrections'] = [];
  for (const f of ['street1', 'street2', 'city', 'state', 'zip'] as const) {
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
function normalizeStreet(street1: string, street2: string | undefined, messages: AddressValidation['messages']): { street1: string; street2?: string } {
  const parsed = parseAddress.parseLocation(street1.replace(/,/g, ' '));
  const secondFromLine2 = street2 && street2.trim() ? parseSecondLine(street2) : undefined;
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

/**
 * Validates and normalizes a US address the way USPS would print it: street parsing with parse-address, and the
 * ZIP, city and state checked against each other with the Census ZIP list of the zipcodes package. Street-level
 * deliverability (does number 415 exist?) needs the carriers' own data and is not claimed here.
 */
export function validateAddress(input: Address): AddressValidation {
  const messages: AddressValidation['messages'] = [];
  const corrections: AddressValidation['corrections'] = [];
  let valid = true;

  const streets = normalizeStreet(input.street1, input.street2, messages);
  let city = clean(input.city);
  let state = clean(input.state);
  const zipDigits = input.zip.replace(/\D/g, '');
  const zip = zipDigits.length === 9 ? `${zipDigits.slice(0, 5)}-${zipDigits.slice(5)}` : zipDigits.slice(0, 5);

  if (!isKnownState(state)) {
    valid = false;
    messages.push({ code: 'unknown_state', detail: `${state} is not a US state or territory code` });
  }
  const known = lookupZip(zip);
  if (!known) {
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

  const address: Address = {
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
  corrections.push(...correctionsBetween(input, address));
  const unitType = streets.street2?.split(' ')[0];
  const residential = input.residential ?? !(input.company || (unitType && businessUnits.has(unitType)));
  return { valid, address: { ...address, residential }, corrections, messages, residential };
}
