import type { Address, AnyAddress } from '../schemas/address.ts';

export type LabelFormat = 'pdf' | 'zpl' | 'png';

/**
 * What each format is served as. ZPL has no registered media type; `application/zpl` is what label printers'
 * print servers and carriers' APIs commonly send, and the file is plain ASCII.
 */
export const labelContentTypes: Record<LabelFormat, string> = {
  pdf: 'application/pdf',
  zpl: 'application/zpl',
  png: 'image/png',
};

/** Everything a 4×6 label prints, in carrier-neutral terms. */
export interface LabelData {
  carrier: 'ups' | 'usps' | 'fedex';
  serviceCode: string;
  serviceName: string;
  trackingNumber: string;
  from: Address;
  /** Any country: a US address has its state and ZIP; abroad, only what the country has. */
  to: AnyAddress;
  /** Actual weight, in pounds. */
  weightLb: number;
  dimensionsIn?: { length: number; width: number; height: number };
  /** YYYY-MM-DD */
  shipDate: string;
  zone?: string;
  /** The order number. */
  reference?: string;
  isReturn: boolean;
  /** Test mode: marked SAMPLE — DO NOT SHIP. */
  sample: boolean;
}

/** The destination's country where it is not the US, upper case; undefined for a US address. */
export function abroadCountry(d: Pick<LabelData, 'to'>): string | undefined {
  const country = (d.to.country ?? 'US').toUpperCase();
  return country === 'US' ? undefined : country;
}
