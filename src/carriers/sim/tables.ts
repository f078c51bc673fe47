import type { CarrierId } from '../../config.ts';
import type { DimRule } from './billable-weight.ts';
import { fedexPrices, uspsPrices } from './prices/current.ts';
import type { PriceList } from './prices/types.ts';

export interface SimService {
  code: string;
  name: string;
  guaranteed: boolean;
  /** Only to homes, or only to businesses (FedEx splits Ground this way). */
  destination?: 'residential' | 'commercial';
  maxLengthPlusGirthIn?: number;
}

/** The simulators' own price shape, for a carrier whose published tables are not loaded. */
export interface PriceFormula {
  /** Price of 1 lb to zone 1, in cents. */
  baseCents: number;
  /** Price of each further pound to zone 1, in cents. */
  perLbCents: number;
  /** How much dearer each zone further out is, as a fraction of the zone 1 price. */
  zoneStep: number;
}

export interface FormulaPrices {
  kind: 'formula';
  /** Service code to its formula. */
  services: Readonly<Record<string, PriceFormula>>;
  /** Fuel surcharge, as a fraction of transport and residential charges. */
  fuel: number;
  residentialCents: number;
  /** Negotiated discount off transport prices: the account price clients pay. */
  accountDiscount: number;
}

export interface SimCarrierTable {
  id: CarrierId;
  name: string;
  dim: DimRule;
  maxWeightLb: number;
  maxLengthIn: number;
  maxLengthPlusGirthIn: number;
  /** The carrier's published price list when we have it whole (prices/current.ts), else our formula. */
  prices: PriceList | FormulaPrices;
  services: readonly SimService[];
}


/**
 * The simulators' carriers: real service codes and names, the carriers' own dimensional divisors and limits
 * (carriers.md 5.1, 5.4). FedEx and USPS price from their published lists (prices/current.ts); UPS, whose daily
 * rates are not in the stored material, from a formula shaped like them: dearer with weight, distance and speed.
 */
export const simTables: readonly SimCarrierTable[] = [
  {
    id: 'ups',
    name: 'UPS',
    dim: { divisor: 139, minCubicIn: 0 },
    maxWeightLb: 150,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 165,
    prices: {
      kind: 'formula',
      services: {
        '03': { baseCents: 1150, perLbCents: 95, zoneStep: 0.09 },
        '12': { baseCents: 2100, perLbCents: 180, zoneStep: 0.1 },
        '02': { baseCents: 2700, perLbCents: 260, zoneStep: 0.12 },
        '13': { baseCents: 5200, perLbCents: 420, zoneStep: 0.1 },
        '01': { baseCents: 5900, perLbCents: 460, zoneStep: 0.1 },
        '14': { baseCents: 9500, perLbCents: 500, zoneStep: 0.1 },
      },
      fuel: 0.155,
      residentialCents: 575,
      accountDiscount: 0.25,
    },
    services: [
      { code: '03', name: 'UPS Ground', guaranteed: false },
      { code: '12', name: 'UPS 3 Day Select', guaranteed: true },
      { code: '02', name: 'UPS 2nd Day Air', guaranteed: true },
      { code: '13', name: 'UPS Next Day Air Saver', guaranteed: true },
      { code: '01', name: 'UPS Next Day Air', guaranteed: true },
      { code: '14', name: 'UPS Next Day Air Early', guaranteed: true },
    ],
  },
  {
    id: 'usps',
    name: 'USPS',
    dim: { divisor: uspsPrices.dimDivisor, minCubicIn: 1728 },
    maxWeightLb: 70,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 130,
    prices: uspsPrices,
    services: [
      { code: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', guaranteed: false, maxLengthPlusGirthIn: 130 },
      { code: 'PRIORITY_MAIL', name: 'Priority Mail', guaranteed: false, maxLengthPlusGirthIn: 108 },
      { code: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', guaranteed: true, maxLengthPlusGirthIn: 108 },
    ],
  },
  {
    id: 'fedex',
    name: 'FedEx',
    dim: { divisor: fedexPrices.dimDivisor, minCubicIn: 0 },
    maxWeightLb: 150,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 165,
    prices: fedexPrices,
    services: [
      { code: 'FEDEX_GROUND', name: 'FedEx Ground', guaranteed: false, destination: 'commercial' },
      { code: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery', guaranteed: false, destination: 'residential' },
      { code: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver', guaranteed: true },
      { code: 'FEDEX_2_DAY', name: 'FedEx 2Day', guaranteed: true },
      { code: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight', guaranteed: true },
      { code: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight', guaranteed: true },
    ],
  },
];
