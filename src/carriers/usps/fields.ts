import type { Address } from '../../schemas/address.ts';
import type { ParcelSpec } from '../carrier.ts';

/** USPS address fields (carriers.md 3.3): ZIP and ZIP+4 apart, a person's name split in two. */
export interface UspsAddress {
  firstName?: string;
  lastName?: string;
  firm?: string;
  streetAddress: string;
  secondaryAddress?: string;
  city: string;
  state: string;
  ZIPCode: string;
  ZIPPlus4?: string;
  phone?: string;
  email?: string;
}

export function splitZip(zip: string): { ZIPCode: string; ZIPPlus4?: string } {
  const digits = zip.replace(/\D/g, '');
  return digits.length === 9 ? { ZIPCode: digits.slice(0, 5), ZIPPlus4: digits.slice(5) } : { ZIPCode: digits.slice(0, 5) };
}

/**
 * `text` cut to `max` characters at the last word boundary that fits (or hard, for one long word), and the rest.
 * USPS refuses a label whose address fields pass their maxLength (domestic-labels.yaml 3.9.13, Address/Addressee).
 */
export function splitAt(text: string, max: number): [string, string] {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return [t, ''];
  const space = t.lastIndexOf(' ', max);
  const cut = space > 0 ? space : max;
  return [t.slice(0, cut).trim(), t.slice(cut).trim()];
}

const clip = (text: string, max: number): string => splitAt(text, max)[0];

/**
 * An address abroad's streets as InternationalLabelAddress takes them (international-labels.yaml 3.2.2,
 * Thecodergabe/shipstack d44e3ecc): streetAddress and secondaryAddress, `uspsStreetMax` characters each; what
 * street1 cannot hold runs on before street2, so secondaryAddress may come out longer than USPS takes.
 */
export const uspsStreetMax = 50;
export function uspsStreetsAbroad(a: { street1: string; street2?: string | undefined }): { streetAddress: string; secondaryAddress: string } {
  const [streetAddress, overflow] = splitAt(a.street1, uspsStreetMax);
  return { streetAddress, secondaryAddress: [overflow, a.street2?.trim() ?? ''].filter(Boolean).join(' ') };
}

/** The published limits of the label address fields (domestic-labels.yaml 3.9.13, Address, Addressee, DomesticAddress). */
const limits = { street: 50, city: 28, name: 50, firm: 50, email: 50 } as const;
/** The `Phone` and `Email` patterns of the same spec: a value that breaks them is left out rather than refused. */
const phonePattern = /^\+?[1-9][0-9]{7,14}$|^[0-9]{6,15}$/;
const emailPattern = /^[a-zA-Z0-9_+&*-]+(?:\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}$/;

export function toUspsAddress(a: Address): UspsAddress {
  const words = (a.name ?? '').trim().split(/\s+/).filter(Boolean);
  // USPS asks for firstName and lastName separately; everything after the first word counts as the last name.
  const first = words[0] ? clip(words[0], limits.name) : '';
  const last = clip(words.slice(1).join(' '), limits.name);
  // A street longer than USPS's 50 characters goes on over into the secondary line, as much as fits before the
  // unit: the unit is what the carrier needs to deliver, so it is the last thing to be cut.
  const [street, overflow] = splitAt(a.street1, limits.street);
  const unit = clip(a.street2 ?? '', limits.street);
  const room = limits.street - (unit ? unit.length + 1 : 0);
  const secondary = [room > 0 ? clip(overflow, room) : '', unit].filter(Boolean).join(' ');
  const phone = a.phone?.replace(/\D/g, '');
  return {
    ...(first ? { firstName: first } : {}),
    ...(last ? { lastName: last } : {}),
    ...(a.company?.trim() ? { firm: clip(a.company, limits.firm) } : {}),
    streetAddress: street,
    ...(secondary ? { secondaryAddress: secondary } : {}),
    city: clip(a.city, limits.city),
    state: a.state.toUpperCase(),
    ...splitZip(a.zip),
    ...(phone && phonePattern.test(phone) ? { phone } : {}),
    ...(a.email && a.email.length <= limits.email && emailPattern.test(a.email) ? { email: a.email } : {}),
  };
}

/**
 * The size sent for a parcel whose dimensions we were not given: the smallest machinable parcel, 6 × 3 × 0.25 in
 * (USPS Domestic Mail Manual 201.7.5 machinable-parcel minimums; the same figures in the archived DMM 401.1.5.1 and
 * Quick Service Guide 201e). The spec requires every side above zero (domestic-labels.yaml 3.9.13 and
 * shipping-options.yaml 3.1.29 PackageDescription: exclusiveMinimum 0), and this size adds no dimensional weight
 * and no nonstandard fee, so the parcel is priced by its weight alone: the rate search and the label send the same
 * size, and the label costs what was quoted.
 */
export const sizeWithoutDimensions = { length: 6, width: 3, height: 0.25 } as const;

/** USPS wants the longest side as length (carriers.md 3.2). */
export function uspsDimensions(parcel: ParcelSpec): { length: number; width: number; height: number } {
  const d = parcel.dimensionsIn;
  if (!d) return { ...sizeWithoutDimensions };
  const [length, width, height] = [d.length, d.width, d.height].sort((x, y) => y - x) as [number, number, number];
  return { length, width, height };
}

/**
 * Machinable parcels (DMM 201.7.5 as revised with the 2025-01-19 move from IRREGULAR/NON_MACHINABLE to
 * NONSTANDARD, which the spec notes in processingCategory): no side past 22 × 18 × 15 in and no more than 25 lb.
 * Anything larger or heavier is NONSTANDARD, and so is a parcel asked as `non_machinable` (`nonstandard`). The rate search quotes only rates of this category and the label
 * sends it, so the two agree.
 */
const machinableMax = { sides: [22, 18, 15], weightLb: 25 } as const;

export function processingCategory(parcel: ParcelSpec, nonstandard = false): 'MACHINABLE' | 'NONSTANDARD' {
  if (nonstandard) return 'NONSTANDARD';
  const d = uspsDimensions(parcel);
  const sides = [d.length, d.width, d.height];
  const fits = sides.every((side, i) => side <= machinableMax.sides[i]!) && parcel.weightLb <= machinableMax.weightLb;
  return fits ? 'MACHINABLE' : 'NONSTANDARD';
}

/** The rate indicator shipd buys and therefore quotes: single piece, the parcel in its own packaging. */
export const rateIndicator = 'SP';

/** YYYY-MM-DD in UTC, the form of USPS `mailingDate`. */
export function ymd(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The date part of a USPS date or timestamp ("2025-01-17", "2025-01-17T00:00:00"), when it has one. */
export function datePart(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

/** USPS sends booleans as booleans or as "true"/"false" strings (carriers.md 3.5 quirks). */
export function asFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
}

/** `customerReference[].referenceNumber` takes 1 to 30 characters (domestic-labels.yaml 3.9.13, CustomerReference). */
export function clipReference(reference: string): string {
  return reference.trim().slice(0, 30);
}
