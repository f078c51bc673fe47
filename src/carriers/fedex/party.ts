import type { Address, AnyAddress } from '../../schemas/address.ts';
import { failure, ok, type CarrierResult, type ParcelSpec } from '../carrier.ts';

/**
 * FedEx's limits on a party (ship/v1 Shipment-Resource.json PartyAddress_2 and PartyContact; address-validation/v1
 * Address): at most 3 street lines of 35 characters ("streetlines more than 3 will be ignored"), a city of 35,
 * a person's name of 70 and a company's of 35.
 */
const lineMax = 35;
const maxLines = 3;
export const cityMax = 35;
const personMax = 70;
const companyMax = 35;

/** A street cut into lines of at most 35 characters at spaces; a word longer than a line is cut where it must be. */
function wrap(street: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of street.trim().split(/\s+/)) {
    for (let rest = word; rest; rest = rest.slice(lineMax)) {
      const piece = rest.slice(0, lineMax);
      if (line && line.length + 1 + piece.length <= lineMax) line = `${line} ${piece}`;
      else {
        if (line) lines.push(line);
        line = piece;
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The address's streets as FedEx's streetLines: street1 and street2 each on their own lines, a long one wrapped
 * rather than cut, since FedEx prints what it gets. Undefined when they need more than FedEx's three lines.
 */
export function fedexStreetLines(a: AnyAddress): string[] | undefined {
  const lines = [a.street1, a.street2].filter((s): s is string => !!s && s.trim() !== '').flatMap(wrap);
  return lines.length <= maxLines ? lines : undefined;
}

export interface FedexAddress {
  streetLines: string[];
  city: string;
  stateOrProvinceCode: string;
  postalCode: string;
  countryCode: string;
  residential?: boolean;
}

/** The ship and address-validation APIs' address, or why FedEx could not take its streets. */
export function fedexAddress(a: Address, residential?: boolean): CarrierResult<FedexAddress> {
  const streetLines = fedexStreetLines(a);
  if (!streetLines) return failure('address_invalid', `FedEx takes at most ${maxLines} street lines of ${lineMax} characters; "${[a.street1, a.street2].filter(Boolean).join(', ')}" needs more`);
  return ok({
    streetLines,
    city: a.city.trim(),
    stateOrProvinceCode: a.state.toUpperCase(),
    postalCode: a.zip,
    countryCode: a.country ?? 'US',
    ...(residential === undefined ? {} : { residential }),
  });
}

/**
 * Where an address abroad is, as FedEx's rate and address documents take it: the state or province only as a code of
 * at most two letters, the postal code (at most 10 characters) only where the country has them.
 */
export function placeAbroad(a: AnyAddress): { city: string; stateOrProvinceCode?: string; postalCode?: string; countryCode: string } {
  const state = a.state?.trim().toUpperCase();
  return {
    city: a.city.trim(),
    ...(state && state.length <= 2 ? { stateOrProvinceCode: state } : {}),
    ...(a.zip ? { postalCode: a.zip.trim().toUpperCase().slice(0, 10) } : {}),
    countryCode: (a.country ?? 'US').toUpperCase(),
  };
}

/** The rate API's address: its RateAddress has no street lines, as a rate depends on the postal code and the residential flag. */
export function rateAddress(a: Address, residential: boolean) {
  return { city: a.city.trim(), stateOrProvinceCode: a.state.toUpperCase(), postalCode: a.zip, countryCode: a.country ?? 'US', residential };
}


const fit = (s: string, max: number) => s.trim().slice(0, max).trim();

/**
 * The contact's names within FedEx's lengths: the person (else the company) and the company when there is one;
 * undefined when the address names neither, as FedEx needs one of them.
 */
export function contactNames(a: AnyAddress): { personName: string; companyName?: string } | undefined {
  const person = fit(a.name ?? a.company ?? '', personMax);
  if (!person) return undefined;
  return { personName: person, ...(a.company ? { companyName: fit(a.company, companyMax) } : {}) };
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

/**
 * The package's declared value, when the parcel is insured (RequestedPackageLineItem.declaredValue, Money: amount
 * and currency, in the rate and ship documents), in US dollars as the `insurance` asked; the ship request also
 * states the shipment's totalDeclaredValue, "equal to the sum of all the individual declaredValues".
 */
export function fedexDeclaredValue(parcel: Pick<ParcelSpec, 'insuredCents'>, key: 'declaredValue' | 'totalDeclaredValue') {
  return parcel.insuredCents === undefined ? {} : { [key]: { amount: parcel.insuredCents / 100, currency: 'USD' } };
}

const declaredCents = (parcels: readonly Pick<ParcelSpec, 'insuredCents'>[]) => parcels.reduce((sum, p) => sum + (p.insuredCents ?? 0), 0);

/** The ship request's totalDeclaredValue: the boxes' declared values summed, when any box is insured. */
export function fedexTotalDeclaredValue(parcels: readonly Pick<ParcelSpec, 'insuredCents'>[]) {
  return parcels.some((p) => p.insuredCents !== undefined) ? { totalDeclaredValue: { amount: declaredCents(parcels) / 100, currency: 'USD' } } : {};
}

/** The ship document's Money: "Maximum limit is 5 digits before decimal". */
const mostDeclaredCents = 99_999_99;

/**
 * Several boxes each declared within FedEx's limit can add up to more than totalDeclaredValue holds: refused before
 * FedEx is asked, in the rate as in the purchase, so the rate shop drops FedEx rather than sell what it cannot buy.
 */
export function declaredTotalRefusal(parcels: readonly Pick<ParcelSpec, 'insuredCents'>[]): CarrierResult<never> | null {
  const cents = declaredCents(parcels);
  if (cents <= mostDeclaredCents) return null;
  const asked = parcels.length > 1 ? `these ${parcels.length} boxes are declared at $${(cents / 100).toFixed(2)} together` : `this one asks $${(cents / 100).toFixed(2)}`;
  return failure('insurance_above_limit', `FedEx takes a shipment's total declared value (totalDeclaredValue) of at most $99,999.99; ${asked}`);
}
