import type { CarrierId } from '../config.ts';

// Tracking number formats and check digits of UPS, USPS and FedEx (carriers.md 6): building numbers for the
// simulators' labels, checking numbers, and telling which carrier a bare number belongs to. Pure: no I/O.
//
// Formats accepted by isValidTrackingNumber (whitespace is ignored everywhere, letter case for UPS):
//   UPS    18  `1Z` + 15 letters/digits + check digit; UPS rule over the 15 (6.1).
//   USPS   22  IMpb, channel AI 91–95 first; GS1 mod 10 over the first 21 digits (6.2).
//          26  extended IMpb, channel AI 91–95 first; GS1 mod 10 over the first 25 digits (6.2).
//          20  GS1 mod 10 over the first 19 digits.
//   FedEx  12  Express / REST Ground; weights 3, 1, 7 from the left, (sum mod 11) mod 10 (6.3).
//          15  Ground; GS1 mod 10 over the first 14 digits (6.3).
//          22  Ground `96` barcode: 96 + SCNC (2) + service (3) + shipper (7) + package (7) + check. The check digit is
//              GS1 mod 10 over the 14 shipper and package digits only; 96, SCNC and service are not covered. carriers.md
//              says only "mod 10, weights 3/1" (3P/jkeen); jkeen's published sample 9611020987654312345672 passes
//              with this scope and fails when the check runs over all 21 digits or over the 19 after `96`.
//          34  Express 1D barcode: its last 12 digits must be a valid 12-digit number; the first 22 are not checked.
//          20  SmartPost / Ground Economy: an IMpb number with its `92` channel AI left off, so the check digit is GS1
//              mod 10 over `92` + the first 19 digits. carriers.md's sample 61292701078443410536 passes only this
//              way (a plain GS1 over its 19 digits gives 5, not 6). A 20-digit number can never pass both this and
//              the USPS 20-digit rule: the `92` adds 29 to the weighted sum, which moves the check digit by 1.

export type TrackingCarrier = CarrierId;

const digitsRe = /^[0-9]+$/;

function assertDigits(value: string, length: number | null, what: string): void {
  if (!digitsRe.test(value) || (length !== null && value.length !== length)) {
    throw new RangeError(`${what} must be ${length === null ? 'one or more' : length} digits, got ${JSON.stringify(value)}`);
  }
}

/** A UPS body character's value: digits as they are, letters by (ASCII − 3) mod 10 (A=2 … I=0 … Z=7). */
function upsCharValue(code: number): number {
  return code <= 57 ? code - 48 : (code - 3) % 10;
}

/**
 * The UPS 1Z check digit over the 15 characters after `1Z` (carriers.md 6.1): letters map to digits by
 * (ASCII − 3) mod 10, characters in even 1-based positions count double, check = (10 − sum mod 10) mod 10.
 */
export function upsCheckDigit(body15: string): number {
  const body = body15.toUpperCase();
  if (!/^[0-9A-Z]{15}$/.test(body)) throw new RangeError(`a UPS tracking number body is 15 letters or digits, got ${JSON.stringify(body15)}`);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += upsCharValue(body.charCodeAt(i)) * (i % 2 === 1 ? 2 : 1);
  return (10 - (sum % 10)) % 10;
}

/**
 * GS1 mod 10 check digit of the digits before it: weights 3, 1, 3, 1… starting from the rightmost digit,
 * check = (10 − sum mod 10) mod 10. USPS IMpb uses it, and so do FedEx Ground's 15-digit, 22-digit `96` and
 * 20-digit SmartPost numbers.
 */
export function gs1CheckDigit(digits: string): number {
  assertDigits(digits, null, 'the digits under a GS1 check digit');
  let sum = 0;
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += (digits.charCodeAt(i) - 48) * weight;
  return (10 - (sum % 10)) % 10;
}

/** The USPS IMpb check digit (GS1 mod 10, rightmost digit weighted 3) over every digit before it (carriers.md 6.2). */
export function uspsCheckDigit(digits: string): number {
  return gs1CheckDigit(digits);
}

const fedexWeights = [3, 1, 7] as const;

/** The FedEx 12-digit check digit over the first 11 digits: weights 3, 1, 7, 3, 1, 7… from the left, (sum mod 11) mod 10. */
export function fedexCheckDigit(body11: string): number {
  assertDigits(body11, 11, 'a FedEx tracking number body');
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += (body11.charCodeAt(i) - 48) * fedexWeights[i % 3]!;
  return (sum % 11) % 10;
}

/**
 * A UPS number, 18 characters: `1Z` + 6-character shipper account (uppercase letters/digits) + 2-character
 * service indicator (uppercase letters/digits) + 7-digit package reference + 1 check digit (upsCheckDigit over
 * the 15 characters between `1Z` and the check digit).
 */
export function upsTrackingNumber(shipper6: string, serviceIndicator2: string, reference7: string): string {
  if (!/^[0-9A-Z]{6}$/.test(shipper6)) throw new RangeError(`a UPS shipper account is 6 uppercase letters or digits, got ${JSON.stringify(shipper6)}`);
  if (!/^[0-9A-Z]{2}$/.test(serviceIndicator2)) {
    throw new RangeError(`a UPS service indicator is 2 uppercase letters or digits, got ${JSON.stringify(serviceIndicator2)}`);
  }
  assertDigits(reference7, 7, 'a UPS package reference');
  const body = `${shipper6}${serviceIndicator2}${reference7}`;
  return `1Z${body}${upsCheckDigit(body)}`;
}

/**
 * A USPS IMpb number, 22 digits: `92` (channel AI: a commercial mailer with a 9-digit Mailer ID) + 3-digit
 * Service Type Code + 9-digit Mailer ID (starting with 9) + 7-digit serial + 1 check digit (GS1 mod 10 over the
 * 21 digits before it).
 */
export function uspsTrackingNumber(serviceTypeCode3: string, mailerId9: string, serial7: string): string {
  assertDigits(serviceTypeCode3, 3, 'a USPS service type code');
  assertDigits(mailerId9, 9, 'a 9-digit USPS Mailer ID');
  if (!mailerId9.startsWith('9')) throw new RangeError(`a 9-digit USPS Mailer ID starts with 9, got ${JSON.stringify(mailerId9)}`);
  assertDigits(serial7, 7, 'a USPS serial number');
  const body = `92${serviceTypeCode3}${mailerId9}${serial7}`;
  return `${body}${uspsCheckDigit(body)}`;
}

/** A FedEx number, 12 digits: 11 digits + 1 check digit (fedexCheckDigit: weights 3, 1, 7 from the left, mod 11, mod 10). */
export function fedexTrackingNumber(body11: string): string {
  return `${body11}${fedexCheckDigit(body11)}`;
}

const s10Weights = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** UPU S10's check digit of an 8-digit serial: weights 8 6 4 2 3 5 9 7, 11 less the sum mod 11, 10 → 0 and 11 → 5. */
export function s10CheckDigit(serial8: string): number {
  assertDigits(serial8, 8, 'S10 serial number');
  const sum = [...serial8].reduce((total, c, i) => total + (c.charCodeAt(0) - 48) * s10Weights[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** A UPU S10 item number posted in the US: two service letters, the serial, its check digit, and US. */
export function s10TrackingNumber(service2: string, serial8: string): string {
  if (!/^[A-Z]{2}$/.test(service2)) throw new RangeError(`an S10 service indicator is two capital letters, got ${JSON.stringify(service2)}`);
  return `${service2}${serial8}${s10CheckDigit(serial8)}US`;
}

/** Whether the last digit of `n` (all digits) is the GS1 check digit of the `covered` digits. */
function gs1Matches(covered: string, n: string): boolean {
  return gs1CheckDigit(covered) === n.charCodeAt(n.length - 1) - 48;
}

function validUps(n: string): boolean {
  return /^1Z[0-9A-Z]{15}[0-9]$/.test(n) && upsCheckDigit(n.slice(2, 17)) === n.charCodeAt(17) - 48;
}

function validUsps(n: string): boolean {
  if (/^[A-Z]{2}[0-9]{9}US$/.test(n)) return s10CheckDigit(n.slice(2, 10)) === n.charCodeAt(10) - 48;
  if (!digitsRe.test(n)) return false;
  switch (n.length) {
    case 22:
    case 26:
      return /^9[1-5]/.test(n) && gs1Matches(n.slice(0, -1), n);
    case 20:
      return gs1Matches(n.slice(0, -1), n);
    default:
      return false;
  }
}

function validFedex12(n: string): boolean {
  return fedexCheckDigit(n.slice(0, 11)) === n.charCodeAt(11) - 48;
}

function validFedex(n: string): boolean {
  if (!digitsRe.test(n)) return false;
  switch (n.length) {
    case 12:
      return validFedex12(n);
    case 15:
      return gs1Matches(n.slice(0, 14), n);
    case 20:
      return gs1Matches(`92${n.slice(0, 19)}`, n);
    case 22:
      return n.startsWith('96') && gs1Matches(n.slice(7, 21), n);
    case 34:
      return validFedex12(n.slice(22));
    default:
      return false;
  }
}

/** Strips whitespace and upper-cases (only UPS numbers hold letters). */
function normalize(tn: string): string {
  return tn.replace(/\s+/g, '').toUpperCase();
}

/**
 * Whether `tn` is a well-formed number of the carrier with a correct check digit, in any of the formats listed at
 * the top of this file. Whitespace is ignored, and letter case for UPS. Note carriers.md 6.3: some FedEx 12-digit
 * numbers seen in the wild fail the check digit, so a caller forwarding a customer's number to FedEx may prefer
 * not to reject on this alone.
 */
export function isValidTrackingNumber(carrier: TrackingCarrier, tn: string): boolean {
  const n = normalize(tn);
  switch (carrier) {
    case 'ups':
      return validUps(n);
    case 'usps':
      return validUsps(n);
    case 'fedex':
      return validFedex(n);
    default:
      return false;
  }
}

const allCarriers: readonly TrackingCarrier[] = ['ups', 'usps', 'fedex'];

/**
 * Every carrier for which `tn` is a valid number (isValidTrackingNumber), in the order ups, usps, fedex; empty when
 * none. With the formats above the lengths and prefixes do not overlap (20-digit USPS and SmartPost numbers cannot
 * both check out), so a valid number gives one carrier; the list is for formats added later that may overlap.
 */
export function detectCarrier(tn: string): TrackingCarrier[] {
  return allCarriers.filter((c) => isValidTrackingNumber(c, tn));
}

/** The fixed UPS shipper account in test-mode numbers. */
export const testUpsShipper = 'SHPD01';
/** The fixed 9-digit USPS Mailer ID in test-mode numbers. */
export const testUspsMailerId = '927000001';

/** USPS Service Type Codes by API mail class, for test-mode numbers (carriers.md 6.2). */
export const uspsServiceTypeCodes: Readonly<Record<string, string>> = {
  USPS_GROUND_ADVANTAGE: '001',
  PRIORITY_MAIL: '055',
  PRIORITY_MAIL_EXPRESS: '701',
};

/**
 * S10 service indicators of USPS's international mail classes, for test-mode numbers: UPU S10 gives E to EMS (Priority
 * Mail Express International), C to parcels (Priority Mail International) and L to tracked letter-post items
 * (First-Class Package International Service); the second letter is the post's own choice.
 */
export const uspsS10Indicators: Readonly<Record<string, string>> = {
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: 'EC',
  PRIORITY_MAIL_INTERNATIONAL: 'CP',
  'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': 'LX',
};

/** The seed's bytes read as one big-endian integer, mod 10^count, as `count` digits. */
function seedDigits(seed: Uint8Array, count: number): string {
  let value = 0n;
  for (const byte of seed) value = (value << 8n) | BigInt(byte);
  return (value % 10n ** BigInt(count)).toString().padStart(count, '0');
}

/**
 * A valid number in the carrier's real format for test mode, decided entirely by the seed (at least 8 bytes,
 * all of them used, read as a big-endian integer):
 * - UPS: 1Z + `SHPD01` + the API service code as the service indicator (carriers.md 6.1's convention; it must be
 *   2 letters/digits) + seed mod 10^7 + check digit;
 * - USPS international: the UPU S10 number of uspsS10Indicators's letters, seed mod 10^8 and its check digit;
 * - USPS: 92 + the service's STC from uspsServiceTypeCodes + Mailer ID 927000001 + seed mod 10^7 + check digit;
 * - FedEx: seed mod 10^11 + check digit (the service does not show in the number).
 * UPS and USPS numbers have 10^7 per service, so two random seeds share a number with probability 10^-7.
 * Throws RangeError for a short seed or a service with no code or STC here.
 */
export function syntheticTrackingNumber(carrier: TrackingCarrier, serviceCode: string, seed: Uint8Array | Buffer): string {
  if (seed.length < 8) throw new RangeError(`a tracking number seed needs at least 8 bytes, got ${seed.length}`);
  switch (carrier) {
    case 'ups':
      return upsTrackingNumber(testUpsShipper, serviceCode, seedDigits(seed, 7));
    case 'usps': {
      const s10 = Object.hasOwn(uspsS10Indicators, serviceCode) ? uspsS10Indicators[serviceCode] : undefined;
      if (s10 !== undefined) return s10TrackingNumber(s10, seedDigits(seed, 8));
      const stc = Object.hasOwn(uspsServiceTypeCodes, serviceCode) ? uspsServiceTypeCodes[serviceCode] : undefined;
      if (stc === undefined) throw new RangeError(`no USPS service type code for service ${JSON.stringify(serviceCode)}`);
      return uspsTrackingNumber(stc, testUspsMailerId, seedDigits(seed, 7));
    }
    case 'fedex':
      return fedexTrackingNumber(seedDigits(seed, 11));
    default:
      throw new RangeError(`unknown carrier ${JSON.stringify(carrier)}`);
  }
}
