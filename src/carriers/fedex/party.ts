import type { Address } from '../../schemas/address.ts';

/** FedEx's address block: up to 3 street lines of 35 characters (carriers.md 4.4). */
export function fedexAddress(a: Address, residential?: boolean) {
  return {
    streetLines: [a.street1, a.street2].filter((s): s is string => !!s && s.trim() !== '').map((s) => s.trim().slice(0, 35)),
    city: a.city,
    stateOrProvinceCode: a.state.toUpperCase(),
    postalCode: a.zip,
    countryCode: a.country ?? 'US',
    ...(residential === undefined ? {} : { residential }),
  };
}

/** Whether FedEx should treat the address as a home: as the client said, else when it names no company. */
export function isResidential(a: Address): boolean {
  return a.residential ?? !a.company;
}

/** The 10 digits FedEx requires for a US phone number, or undefined when the number does not have them. */
export function usPhone(phone: string | undefined): string | undefined {
  const digits = (phone ?? '').replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return ten.length === 10 ? ten : undefined;
}

/** YYYY-MM-DD of a date, as FedEx's shipDateStamp / shipDatestamp want it. */
export function fedexDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** FedEx wants whole inches, at most 999: dimensions are rounded up (carriers.md 4.3). */
export function fedexDimensions(d: { length: number; width: number; height: number } | undefined) {
  if (!d) return undefined;
  const up = (n: number) => Math.min(999, Math.max(1, Math.ceil(n)));
  return { length: up(d.length), width: up(d.width), height: up(d.height), units: 'IN' as const };
}
