import type { CarrierId } from '../../config.ts';
import type { DimRule } from './billable-weight.ts';

export interface SimService {
  code: string;
  name: string;
  /** Published price of 1 lb to zone 1, in cents. */
  baseCents: number;
  /** Published price of each further pound to zone 1, in cents. */
  perLbCents: number;
  /** How much dearer each zone further out is, as a fraction of the zone 1 price. */
  zoneStep: number;
  /** Business days in transit to zone 1 … 9. */
  days: readonly [number, number, number, number, number, number, number, number, number];
  guaranteed: boolean;
  /** Only to homes, or only to businesses (FedEx splits Ground this way). */
  destination?: 'residential' | 'commercial';
  maxLengthPlusGirthIn?: number;
}

export interface SimCarrierTable {
  id: CarrierId;
  name: string;
  dim: DimRule;
  /** Fuel surcharge, as a fraction of transport and residential charges. */
  fuel: number;
  residentialCents: number;
  /** Negotiated discount off published transport prices: the account price clients pay. */
  accountDiscount: number;
  maxWeightLb: number;
  maxLengthIn: number;
  maxLengthPlusGirthIn: number;
  services: readonly SimService[];
}

const ground = [1, 1, 2, 3, 4, 4, 5, 5, 7] as const;
const all = (n: number) => [n, n, n, n, n, n, n, n, n + 2] as const;

/**
 * The simulators' carriers: real service codes and names, the carriers' own dimensional divisors and limits
 * (carriers.md 5.1, 5.4), and prices shaped like the published ones: dearer with weight, distance and speed.
 */
export const simTables: readonly SimCarrierTable[] = [
  {
    id: 'ups',
    name: 'UPS',
    dim: { divisor: 139, minCubicIn: 0 },
    fuel: 0.155,
    residentialCents: 575,
    accountDiscount: 0.25,
    maxWeightLb: 150,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 165,
    services: [
      { code: '03', name: 'UPS Ground', baseCents: 1150, perLbCents: 95, zoneStep: 0.09, days: ground, guaranteed: false },
      { code: '12', name: 'UPS 3 Day Select', baseCents: 2100, perLbCents: 180, zoneStep: 0.1, days: all(3), guaranteed: true },
      { code: '02', name: 'UPS 2nd Day Air', baseCents: 2700, perLbCents: 260, zoneStep: 0.12, days: all(2), guaranteed: true },
      { code: '13', name: 'UPS Next Day Air Saver', baseCents: 5200, perLbCents: 420, zoneStep: 0.1, days: all(1), guaranteed: true },
      { code: '01', name: 'UPS Next Day Air', baseCents: 5900, perLbCents: 460, zoneStep: 0.1, days: all(1), guaranteed: true },
      { code: '14', name: 'UPS Next Day Air Early', baseCents: 9500, perLbCents: 500, zoneStep: 0.1, days: all(1), guaranteed: true },
    ],
  },
  {
    id: 'usps',
    name: 'USPS',
    dim: { divisor: 166, minCubicIn: 1728 },
    fuel: 0,
    residentialCents: 0,
    accountDiscount: 0.1,
    maxWeightLb: 70,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 130,
    services: [
      { code: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', baseCents: 650, perLbCents: 70, zoneStep: 0.1, days: [2, 2, 3, 3, 4, 4, 5, 5, 7], guaranteed: false, maxLengthPlusGirthIn: 130 },
      { code: 'PRIORITY_MAIL', name: 'Priority Mail', baseCents: 950, perLbCents: 120, zoneStep: 0.11, days: [1, 1, 2, 2, 2, 3, 3, 3, 4], guaranteed: false, maxLengthPlusGirthIn: 108 },
      { code: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', baseCents: 3100, perLbCents: 300, zoneStep: 0.09, days: [1, 1, 1, 1, 2, 2, 2, 2, 3], guaranteed: true, maxLengthPlusGirthIn: 108 },
    ],
  },
  {
    id: 'fedex',
    name: 'FedEx',
    dim: { divisor: 139, minCubicIn: 0 },
    fuel: 0.15,
    residentialCents: 560,
    accountDiscount: 0.25,
    maxWeightLb: 150,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 165,
    services: [
      { code: 'FEDEX_GROUND', name: 'FedEx Ground', baseCents: 1120, perLbCents: 93, zoneStep: 0.09, days: ground, guaranteed: false, destination: 'commercial' },
      { code: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery', baseCents: 1180, perLbCents: 95, zoneStep: 0.09, days: ground, guaranteed: false, destination: 'residential' },
      { code: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver', baseCents: 2300, perLbCents: 190, zoneStep: 0.1, days: all(3), guaranteed: true },
      { code: 'FEDEX_2_DAY', name: 'FedEx 2Day', baseCents: 2650, perLbCents: 250, zoneStep: 0.12, days: all(2), guaranteed: true },
      { code: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight', baseCents: 5000, perLbCents: 400, zoneStep: 0.1, days: all(1), guaranteed: true },
      { code: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight', baseCents: 5600, perLbCents: 440, zoneStep: 0.1, days: all(1), guaranteed: true },
    ],
  },
];
