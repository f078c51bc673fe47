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

export function toUspsAddress(a: Address): UspsAddress {
  const words = (a.name ?? '').trim().split(/\s+/).filter(Boolean);
  // USPS asks for firstName and lastName separately; everything after the first word counts as the last name.
  const person = words.length > 0 ? { firstName: words[0], ...(words.length > 1 ? { lastName: words.slice(1).join(' ') } : {}) } : {};
  return {
    ...person,
    ...(a.company ? { firm: a.company } : {}),
    streetAddress: a.street1,
    ...(a.street2?.trim() ? { secondaryAddress: a.street2.trim() } : {}),
    city: a.city,
    state: a.state.toUpperCase(),
    ...splitZip(a.zip),
    ...(a.phone ? { phone: a.phone.replace(/\D/g, '') } : {}),
    ...(a.email ? { email: a.email } : {}),
  };
}

/** USPS wants the longest side as length (carriers.md 3.2); a parcel without dimensions goes as zeros. */
export function uspsDimensions(parcel: ParcelSpec): { length: number; width: number; height: number } {
  const d = parcel.dimensionsIn;
  if (!d) return { length: 0, width: 0, height: 0 };
  const [length, width, height] = [d.length, d.width, d.height].sort((x, y) => y - x) as [number, number, number];
  return { length, width, height };
}

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
