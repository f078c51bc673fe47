import type { CarrierId } from '../config.ts';

export interface CarrierBox {
  id: string;
  name: string;
  carrier: CarrierId;
  /** Outside dimensions in inches, longest first. */
  dimensionsIn: [number, number, number];
  maxWeightLb: number;
  /** Flat-rate boxes cost the same to any zone at any weight up to the maximum: the price, in cents. */
  flatRate?: { service: string; listCents: number; accountCents: number };
}

/** The carriers' own packaging, with their published sizes. */
export const carrierBoxes: readonly CarrierBox[] = [
  { id: 'pkg_usps_small_flat_rate_box', name: 'USPS Priority Mail Small Flat Rate Box', carrier: 'usps', dimensionsIn: [8.625, 5.375, 1.625], maxWeightLb: 70, flatRate: { service: 'PRIORITY_MAIL', listCents: 1115, accountCents: 1040 } },
  { id: 'pkg_usps_medium_flat_rate_box', name: 'USPS Priority Mail Medium Flat Rate Box', carrier: 'usps', dimensionsIn: [11, 8.5, 5.5], maxWeightLb: 70, flatRate: { service: 'PRIORITY_MAIL', listCents: 2010, accountCents: 1785 } },
  { id: 'pkg_usps_large_flat_rate_box', name: 'USPS Priority Mail Large Flat Rate Box', carrier: 'usps', dimensionsIn: [12, 12, 5.5], maxWeightLb: 70, flatRate: { service: 'PRIORITY_MAIL', listCents: 2695, accountCents: 2460 } },
  { id: 'pkg_usps_flat_rate_envelope', name: 'USPS Priority Mail Flat Rate Envelope', carrier: 'usps', dimensionsIn: [12.5, 9.5, 0.75], maxWeightLb: 70, flatRate: { service: 'PRIORITY_MAIL', listCents: 1065, accountCents: 955 } },
  { id: 'pkg_ups_express_box_small', name: 'UPS Express Box Small', carrier: 'ups', dimensionsIn: [13, 11, 2], maxWeightLb: 30 },
  { id: 'pkg_ups_express_box_medium', name: 'UPS Express Box Medium', carrier: 'ups', dimensionsIn: [16, 11, 3], maxWeightLb: 30 },
  { id: 'pkg_ups_express_box_large', name: 'UPS Express Box Large', carrier: 'ups', dimensionsIn: [18, 13, 3], maxWeightLb: 30 },
  { id: 'pkg_ups_pak', name: 'UPS Pak', carrier: 'ups', dimensionsIn: [16, 12.75, 1], maxWeightLb: 20 },
  { id: 'pkg_ups_tube', name: 'UPS Tube', carrier: 'ups', dimensionsIn: [38, 6, 6], maxWeightLb: 20 },
  { id: 'pkg_fedex_small_box', name: 'FedEx Small Box', carrier: 'fedex', dimensionsIn: [12.375, 10.875, 1.5], maxWeightLb: 20 },
  { id: 'pkg_fedex_medium_box', name: 'FedEx Medium Box', carrier: 'fedex', dimensionsIn: [13.25, 11.5, 2.375], maxWeightLb: 20 },
  { id: 'pkg_fedex_large_box', name: 'FedEx Large Box', carrier: 'fedex', dimensionsIn: [17.5, 12.375, 3], maxWeightLb: 30 },
  { id: 'pkg_fedex_pak', name: 'FedEx Pak', carrier: 'fedex', dimensionsIn: [15.5, 12, 1], maxWeightLb: 20 },
  { id: 'pkg_fedex_tube', name: 'FedEx Tube', carrier: 'fedex', dimensionsIn: [38, 6, 6], maxWeightLb: 20 },
];
