import { isResidential } from '../carrier.ts';
import type { ParcelSpec } from '../carrier.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { asString } from '../live/lenient.ts';
import { upsCountryOf } from './puerto-rico.ts';

// Versions and shapes from UPS's OpenAPI documents in UPS-API/api-documentation at commit
// 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21); test/contracts/ups/ holds our schemas of them.

/** Rating and Shipping: the one version each spec lists for its current path (Rating.yaml, Shipping.yaml). */
export const apiVersion = 'v2409';
/** Street-level address validation: "Valid values: - v2" (AddressValidation.yaml). */
export const xavVersion = 'v2';
/**
 * Label Recovery lists v1, v1701 and V1903 (v2603 is for Roadie labels only). v1903 is the newest for 1Z labels, and
 * its SubVersion says the same in the body.
 */
export const labelRecoveryVersion = 'v1903';
export const labelRecoverySubVersion = '1903';

/**
 * A rate request's Request: Rating.yaml returns ItemizedCharges (the surcharges a rate includes) only for a
 * SubVersion of 1601 or later, so it asks for the latest it lists (1601 … 2409), as the path's version is.
 */
export const rateRequestHeader = { SubVersion: '2409', TransactionReference: { CustomerContext: 'shipd rate' } };

/** The client name UPS logs per call; Tracking refuses calls without it (Tracking.yaml: a required header). */
export const transactionSrc = 'shipd';

/**
 * Shipping.yaml, Shipment.Service.Code: "The following Services are not available to return shipment: 13, 59, 82,
 * 83, 84, 85, 86, C6, C7, C8".
 */
export const servicesWithoutReturns: ReadonlySet<string> = new Set(['13', '59', '82', '83', '84', '85', '86', 'C6', 'C7', 'C8']);

/**
 * ReturnService code 9: UPS Print Return Label (PRL), the label the customer prints and sticks on the parcel. shipd
 * charges a return with `charge: "on_use"` at its first scan whatever UPS does; that UPS itself bills a PRL only once
 * it is used is said by shippers' software guides of UPS Returns (transportation billed when the return is
 * delivered), not by Shipping.yaml, and was not found in a UPS document.
 */
export const printReturnLabel = { Code: '9', Description: 'UPS Print Return Label' } as const;

/** A request a builder hands the adapter: which path to call with which body, no I/O. */
export interface UpsCall {
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface UpsAddress {
  AddressLine: string[];
  City: string;
  StateProvinceCode: string;
  PostalCode: string;
  CountryCode: string;
  ResidentialAddressIndicator?: '';
}

/** `lines` come from fitAddressLines: the street split as UPS allows. */
export function upsAddress(a: Address, lines: string[], markResidential: boolean): UpsAddress {
  return {
    AddressLine: lines,
    City: a.city.slice(0, 30),
    StateProvinceCode: a.state.toUpperCase(),
    PostalCode: a.zip.replace('-', ''),
    // Puerto Rico is a country of its own to UPS (puerto-rico.ts).
    CountryCode: upsCountryOf(a),
    // An empty-tag indicator: its presence is the flag.
    ...(markResidential && isResidential(a) ? { ResidentialAddressIndicator: '' as const } : {}),
  };
}

/** UPS caps names at 35 characters; the company goes first because that is what the driver looks for. */
export const upsName = (a: AnyAddress): string => (a.company ?? a.name ?? a.street1).slice(0, 35).trim();

/**
 * Shipping takes dimensions as at most 3 digits, whole units, so both rating and shipping send whole inches,
 * rounded as UPS rounds each measurement for dimensional weight (to the nearest inch, at least 1): what is rated is
 * what is bought.
 */
const wholeInches = (n: number): string => String(Math.max(1, Math.round(n)));

/** Pounds up to the next tenth: UPS bills whole pounds rounded up, so this never rates below the bill. Shipping allows 5 characters. */
const tenthsOfPound = (n: number): string => String(Math.ceil(Number((n * 10).toFixed(6))) / 10);

/**
 * The package's weight and dimensions as UPS wants them: strings, with units and their descriptions (Rating.yaml
 * requires UnitOfMeasurement.Description; its examples say "Pounds" and "Inches").
 */
export function upsPackageMeasures(parcel: ParcelSpec): Record<string, unknown> {
  const d = parcel.dimensionsIn;
  return {
    ...(d
      ? {
          Dimensions: {
            UnitOfMeasurement: { Code: 'IN', Description: 'Inches' },
            Length: wholeInches(d.length),
            Width: wholeInches(d.width),
            Height: wholeInches(d.height),
          },
        }
      : {}),
    PackageWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: tenthsOfPound(parcel.weightLb) },
  };
}

/**
 * The package's declared value, when the parcel is insured: PackageServiceOptions.DeclaredValue, in US dollars (the
 * `insurance` asked is USD). Rating.yaml (UPS-API/api-documentation e6f36df) gives its MonetaryValue as a string of
 * exactly 8 characters, so it is sent zero-padded there ("00450.00", up to UPS's $50,000); Shipping.yaml takes 1 to
 * 19 characters and a Type, which defaults to 01 (declared value, EVS), the one meant.
 */
export function upsDeclaredValue(parcel: ParcelSpec, api: 'rating' | 'shipping'): Record<string, unknown> {
  const declared = declaredValueOf(parcel, api);
  return declared ? { PackageServiceOptions: { DeclaredValue: declared } } : {};
}

/** PackageServiceOptions.DeclaredValue alone, for a Package with other service options beside it. */
export function declaredValueOf(parcel: ParcelSpec, api: 'rating' | 'shipping'): { CurrencyCode: 'USD'; MonetaryValue: string } | undefined {
  if (parcel.insuredCents === undefined) return undefined;
  const dollars = (parcel.insuredCents / 100).toFixed(2);
  return { CurrencyCode: 'USD', MonetaryValue: api === 'rating' ? dollars.padStart(8, '0') : dollars };
}

/** YYYYMMDD, the date form of every UPS API, from the UTC calendar day. */
export const upsDate = (d: Date): string => d.toISOString().slice(0, 10).replaceAll('-', '');

/** YYYY-MM-DD from UPS's YYYYMMDD (or an ISO date some answers carry); undefined when it is neither. */
export function isoDate(value: unknown): string | undefined {
  const s = asString(value)?.replaceAll('-', '');
  if (!s || !/^\d{8}$/.test(s)) return undefined;
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}
