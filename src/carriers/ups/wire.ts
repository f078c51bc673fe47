import type { ParcelSpec } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asString } from '../live/lenient.ts';

/** Rating and Shipping version: the first where RatedShipment is always an array (carriers.md 2.2, 2.3). */
export const apiVersion = 'v2409';
/** Street-level address validation: v1 is deprecated (carriers.md 2.2, 2.7). */
export const xavVersion = 'v2';
/**
 * Label Recovery's path takes a version like the other shipping APIs; carriers.md names the endpoint but not
 * its current version, so this follows Shipping's and is worth confirming against UPS's Label Recovery spec.
 */
export const labelRecoveryVersion = 'v2409';

/** The client name UPS logs per call; Tracking refuses calls without it (carriers.md 2.2). */
export const transactionSrc = 'shipd';

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

/** Same rule as the simulators: a home unless the caller says otherwise or there is a company name. */
export const isResidential = (a: Address): boolean => a.residential ?? !a.company;

export function upsAddress(a: Address, markResidential: boolean): UpsAddress {
  return {
    AddressLine: [a.street1, a.street2].filter((l): l is string => !!l && l.trim() !== ''),
    City: a.city,
    StateProvinceCode: a.state.toUpperCase(),
    PostalCode: a.zip.replace('-', ''),
    CountryCode: a.country ?? 'US',
    // An empty-tag indicator: its presence is the flag (carriers.md 2.2).
    ...(markResidential && isResidential(a) ? { ResidentialAddressIndicator: '' as const } : {}),
  };
}

/** UPS caps names at 35 characters; the company goes first because that is what the driver looks for. */
export const upsName = (a: Address): string => (a.company ?? a.name ?? a.street1).slice(0, 35);

const twoDecimals = (n: number): string => String(Math.round(n * 100) / 100);

/** The package's weight and dimensions, as UPS wants them: strings with units (carriers.md 2.2, 2.3). */
export function upsPackageMeasures(parcel: ParcelSpec): Record<string, unknown> {
  const d = parcel.dimensionsIn;
  return {
    ...(d
      ? {
          Dimensions: {
            UnitOfMeasurement: { Code: 'IN' },
            Length: twoDecimals(d.length),
            Width: twoDecimals(d.width),
            Height: twoDecimals(d.height),
          },
        }
      : {}),
    PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: twoDecimals(parcel.weightLb) },
  };
}

/** YYYYMMDD, the date form of every UPS API, from the UTC calendar day. */
export const upsDate = (d: Date): string => d.toISOString().slice(0, 10).replaceAll('-', '');

/** YYYY-MM-DD from UPS's YYYYMMDD (or an ISO date some answers carry); undefined when it is neither. */
export function isoDate(value: unknown): string | undefined {
  const s = asString(value)?.replaceAll('-', '');
  if (!s || !/^\d{8}$/.test(s)) return undefined;
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}
