import type { Address, AnyAddress } from '../schemas/address.ts';

export type LabelFormat = 'pdf' | 'zpl' | 'png';
/** `letter`: an 8.5×11 sheet with the 4×6 label in its top half, for desktop printers. */
export type LabelSize = '4x6' | '4x8' | 'letter';
/** A ZPL label's dots per inch, as the thermal printer prints. */
export type LabelResolution = 203 | 300;

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
  /** Printed on the label: the client's references, else the order number. */
  references: string[];
  /** 4×6 unless told otherwise; ZPL has no letter sheet and draws it 4×6. */
  size?: LabelSize;
  /** ZPL only: 203 unless told otherwise. */
  resolution?: LabelResolution;
  isReturn: boolean;
  /** Test mode: marked SAMPLE — DO NOT SHIP. */
  sample: boolean;
}

/** The destination's country where it is not the US, upper case; undefined for a US address. */
export function abroadCountry(d: Pick<LabelData, 'to'>): string | undefined {
  const country = (d.to.country ?? 'US').toUpperCase();
  return country === 'US' ? undefined : country;
}
