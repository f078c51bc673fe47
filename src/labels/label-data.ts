import type { Address } from '../schemas/address.ts';

export type LabelFormat = 'pdf' | 'zpl' | 'png';

/** Everything a 4×6 label prints, in carrier-neutral terms. */
export interface LabelData {
  carrier: 'ups' | 'usps' | 'fedex';
  serviceCode: string;
  serviceName: string;
  trackingNumber: string;
  from: Address;
  to: Address;
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
