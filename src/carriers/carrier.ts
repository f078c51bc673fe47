import type { CarrierId } from '../config.ts';
import type { Address } from '../schemas/address.ts';
import type { ServiceInfo } from './catalog.ts';

/** A parcel in carrier-neutral units: pounds and inches. */
export interface ParcelSpec {
  weightLb: number;
  dimensionsIn?: { length: number; width: number; height: number };
}

/** The longest side, and the longest side plus twice the other two (length plus girth), in inches. */
export function lengthAndGirthIn(d: NonNullable<ParcelSpec['dimensionsIn']>): { longest: number; lengthPlusGirth: number } {
  const [a, b, c] = [d.length, d.width, d.height].sort((x, y) => y - x) as [number, number, number];
  return { longest: a, lengthPlusGirth: a + 2 * (b + c) };
}

export interface RateRequest {
  from: Address;
  to: Address;
  parcel: ParcelSpec;
  /** The day the parcel is handed over; delivery dates count from it. */
  shipDate: Date;
  /** Only these services of the carrier, when given. */
  services?: string[];
  /** The carrier's own packaging, when the parcel is in it (its id in GET /packages). */
  carrierBox?: { id: string; flatRate?: { service: string; listCents: number; accountCents: number } };
}

export interface Quote {
  carrier: CarrierId;
  service: string;
  serviceName: string;
  /** What the caller pays, in cents. */
  amountCents: number;
  /** The carrier's published (retail) price, in cents. */
  listAmountCents: number;
  billableWeightLb: number;
  zone: string;
  deliveryDays: number;
  /** YYYY-MM-DD */
  estimatedDeliveryDate: string;
  guaranteed: boolean;
}

export type CarrierErrorCode =
  | 'carrier_unavailable'
  | 'carrier_timeout'
  | 'address_invalid'
  | 'service_unavailable'
  | 'parcel_too_large'
  | 'not_serviced'
  | 'credentials_missing'
  | 'carrier_error';

export interface CarrierFailure {
  code: CarrierErrorCode;
  detail: string;
}

/** Carriers answer with a value or a typed failure; they never throw HTTP details at the caller. */
export type CarrierResult<T> = { ok: true; value: T } | { ok: false; error: CarrierFailure };

export interface AddressCheck {
  valid: boolean;
  address: Address;
  residential: boolean | null;
  messages: { code: string; detail: string }[];
}

/**
 * What every carrier does, live or simulated. Purchase, void and tracking join this interface with the
 * label and tracking capabilities; rating and address checks are what a rate shop needs.
 */
export interface Carrier {
  readonly id: CarrierId;
  readonly name: string;
  readonly services: readonly ServiceInfo[];
  /** Whether calls can succeed now: false for a live carrier without credentials or an adapter. */
  readonly usable: boolean;
  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>>;
  validateAddress?(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>>;
}

export const ok = <T>(value: T): CarrierResult<T> => ({ ok: true, value });
export const failure = (code: CarrierErrorCode, detail: string): CarrierResult<never> => ({ ok: false, error: { code, detail } });
