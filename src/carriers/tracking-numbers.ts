import type { CarrierId } from '../config.ts';

// Tracking number formats and check digits of the three carriers (carriers.md 6), for the simulators' labels
// and for telling which carrier a bare tracking number belongs to.

const digitsOnly = /^[0-9]+$/;

/** UPS: letters map to digits by (ASCII − 3) mod 10; even positions (1-based) count double. */
export function upsCheckDigit(body15: string): number {
  let sum = 0;
  for (let i = 0; i < body15.length; i++) {
    const c = body15.charCodeAt(i);
    const value = c >= 48 && c <= 57 ? c - 48 : (c - 3) % 10;
    sum += (i + 1) % 2 === 0 ? value * 2 : value;
  }
  return (10 - (sum % 10)) % 10;
}

/** GS1 mod 10: from the rightmost digit, weights 3, 1, 3, 1… (USPS IMpb, FedEx Ground 15 and 22 digits). */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += (digits.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

export const uspsCheckDigit = gs1CheckDigit;

/** FedEx 12-digit: weights 3, 1, 7 from the left over 11 digits; (sum mod 11) mod 10. */
export function fedexCheckDigit(body11: string): number {
  const weights = [3, 1, 7];
  let sum = 0;
  for (let i = 0; i < body11.length; i++) sum += (body11.charCodeAt(i) - 48) * weights[i % 3]!;
  return (sum % 11) % 10;
}

/** `1Z` + 6-character shipper account + 2-character service indicator + 7-digit reference + check digit: 18 characters. */
export function upsTrackingNumber(shipper6: string, serviceIndicator2: string, reference7: string): string {
  const body = `${shipper6}${serviceIndicator2}${reference7}`.toUpperCase();
  if (!/^[0-9A-Z]{15}$/.test(body)) throw new Error('a UPS tracking number body is 15 letters and digits');
  return `1Z${body}${upsCheckDigit(body)}`;
}

/** `92` (a commercial mailer with a 9-digit Mailer ID) + 3-digit service type code + Mailer ID + 7-digit serial + check digit: 22 digits. */
export function uspsTrackingNumber(serviceTypeCode3: string, mailerId9: string, serial7: string): string {
  const body = `92${serviceTypeCode3}${mailerId9}${serial7}`;
  if (!/^92[0-9]{3}9[0-9]{8}[0-9]{7}$/.test(body)) throw new Error('a USPS IMpb body is 92, a 3-digit STC, a 9-digit MID starting with 9 and a 7-digit serial');
  return `${body}${uspsCheckDigit(body)}`;
}

/** 11 digits + check digit: the 12-digit number FedEx's REST API gives for Express and Ground. */
export function fedexTrackingNumber(body11: string): string {
  if (!/^[0-9]{11}$/.test(body11)) throw new Error('a FedEx tracking number body is 11 digits');
  return `${body11}${fedexCheckDigit(body11)}`;
}

const gs1Valid = (n: string) => digitsOnly.test(n) && gs1CheckDigit(n.slice(0, -1)) === Number(n.at(-1));

function validUps(n: string): boolean {
  return /^1Z[0-9A-Z]{16}$/.test(n) && upsCheckDigit(n.slice(2, 17)) === Number(n[17]);
}

function validUsps(n: string): boolean {
  if (!digitsOnly.test(n)) return false;
  if (n.length === 22) return /^9[1-5]/.test(n) && gs1Valid(n);
  return (n.length === 26 || n.length === 20) && gs1Valid(n);
}

function validFedex(n: string): boolean {
  if (!digitsOnly.test(n)) return false;
  if (n.length === 12) return fedexCheckDigit(n.slice(0, 11)) === Number(n[11]);
  // 15-digit Ground, the 22-digit Ground "96" barcode, and 20-digit SmartPost all use GS1 mod 10.
  if (n.length === 15 || n.length === 20) return gs1Valid(n);
  if (n.length === 22) return n.startsWith('96') && gs1Valid(n);
  // The 34-digit Express barcode carries the 12-digit tracking number as its last 12 digits.
  if (n.length === 34) return validFedex(n.slice(22));
  return false;
}

const normalize = (tn: string) => tn.replace(/\s+/g, '').toUpperCase();

export function isValidTrackingNumber(carrier: CarrierId, tn: string): boolean {
  const n = normalize(tn);
  if (carrier === 'ups') return validUps(n);
  if (carrier === 'usps') return validUsps(n);
  return validFedex(n);
}

/** Every carrier whose format the number fits: a 20- or 22-digit number can be USPS or FedEx. */
export function detectCarrier(tn: string): CarrierId[] {
  return (['ups', 'usps', 'fedex'] as const).filter((c) => isValidTrackingNumber(c, tn));
}

/** The simulators' shipper account in UPS numbers, and their Mailer ID in USPS ones. */
const testUpsShipper = 'SHPD01';
const testUspsMailerId = '927000001';
/** USPS service type codes by mail class (carriers.md 6.2). */
const uspsServiceTypeCodes: Record<string, string> = {
  USPS_GROUND_ADVANTAGE: '001',
  PRIORITY_MAIL: '055',
  PRIORITY_MAIL_EXPRESS: '701',
};

function seedDigits(seed: Uint8Array, count: number): string {
  let value = 0n;
  for (const byte of seed) value = (value << 8n) | BigInt(byte);
  return (value % 10n ** BigInt(count)).toString().padStart(count, '0');
}

/**
 * A valid tracking number of the carrier's real format, decided by the seed: test mode's labels. UPS numbers
 * carry the API service code as their service indicator, as carriers.md 6.1 suggests for synthetic numbers.
 */
export function syntheticTrackingNumber(carrier: CarrierId, serviceCode: string, seed: Uint8Array): string {
  if (seed.length < 8) throw new Error('a tracking number seed needs at least 8 bytes');
  if (carrier === 'ups') return upsTrackingNumber(testUpsShipper, serviceCode.padStart(2, '0').slice(-2), seedDigits(seed, 7));
  if (carrier === 'usps') return uspsTrackingNumber(uspsServiceTypeCodes[serviceCode] ?? '001', testUspsMailerId, seedDigits(seed, 7));
  return fedexTrackingNumber(seedDigits(seed, 11));
}
