import type { CarrierId } from '../../config.ts';
import type { DimRule } from './billable-weight.ts';
import { fedexPrices, upsPrices, uspsPrices } from './prices/current.ts';
import type { PriceList } from './prices/types.ts';

export interface SimService {
  code: string;
  name: string;
  guaranteed: boolean;
  /** Only to homes, or only to businesses (FedEx splits Ground this way). */
  destination?: 'residential' | 'commercial';
  maxLengthPlusGirthIn?: number;
}

export interface SimCarrierTable {
  id: CarrierId;
  name: string;
  dim: DimRule;
  maxWeightLb: number;
  maxLengthIn: number;
  maxLengthPlusGirthIn: number;
  /** The carrier's published price list in force (prices/current.ts). */
  prices: PriceList;
  services: readonly SimService[];
}


/**
 * The simulators' carriers: real service codes and names, the carriers' own dimensional divisors and limits
 * (carriers.md 5.1, 5.4), and each carrier's published price list (prices/current.ts).
 */
export const simTables: readonly SimCarrierTable[] = [
  {
    id: 'ups',
    name: 'UPS',
    dim: { divisor: upsPrices.dimDivisor, minCubicIn: 0 },
    maxWeightLb: 150,
    maxLengthIn: 108,
    maxLengthPlusGirthIn: 165,
    prices: upsPrices,
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
