import type { CarrierId } from '../config.ts';

export interface ServiceInfo {
  /** The carrier's own service code, as its API spells it. */
  code: string;
  name: string;
  domestic: boolean;
}

export interface CarrierInfo {
  id: CarrierId;
  name: string;
  services: ServiceInfo[];
}

/** The domestic services shipd rates and buys, with the carriers' own codes (carriers.md 2.3, 3.2, 4.3). */
export const carrierCatalog: readonly CarrierInfo[] = [
  {
    id: 'ups',
    name: 'UPS',
    services: [
      { code: '03', name: 'UPS Ground', domestic: true },
      { code: '12', name: 'UPS 3 Day Select', domestic: true },
      { code: '02', name: 'UPS 2nd Day Air', domestic: true },
      { code: '13', name: 'UPS Next Day Air Saver', domestic: true },
      { code: '01', name: 'UPS Next Day Air', domestic: true },
      { code: '14', name: 'UPS Next Day Air Early', domestic: true },
    ],
  },
  {
    id: 'usps',
    name: 'USPS',
    services: [
      { code: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', domestic: true },
      { code: 'PRIORITY_MAIL', name: 'Priority Mail', domestic: true },
      { code: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', domestic: true },
    ],
  },
  {
    id: 'fedex',
    name: 'FedEx',
    services: [
      { code: 'FEDEX_GROUND', name: 'FedEx Ground', domestic: true },
      { code: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery', domestic: true },
      { code: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver', domestic: true },
      { code: 'FEDEX_2_DAY', name: 'FedEx 2Day', domestic: true },
      { code: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight', domestic: true },
      { code: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight', domestic: true },
    ],
  },
];
