import type { CarrierId } from '../config.ts';

export interface ServiceInfo {
  /** The carrier's own service code, as its API spells it. */
  code: string;
  name: string;
  /** Whether it ships between US addresses; the international services (false) ship from the US to other countries. */
  domestic: boolean;
}

export interface CarrierInfo {
  id: CarrierId;
  name: string;
  services: ServiceInfo[];
}

/**
 * The services shipd rates and buys, with the carriers' own codes as their APIs spell them (carriers.md 2.3, 3.2,
 * 4.3): the domestic ones, then the international ones (`domestic: false`). FedEx names FedEx International Ground
 * to Canada FEDEX_GROUND, the code of its domestic Ground service. Code that rates or labels between US addresses
 * reads `domesticServices`, so the international entries change nothing there.
 */
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
      { code: '07', name: 'UPS Worldwide Express', domestic: false },
      { code: '08', name: 'UPS Worldwide Expedited', domestic: false },
      { code: '65', name: 'UPS Worldwide Saver', domestic: false },
      { code: '11', name: 'UPS Standard', domestic: false },
    ],
  },
  {
    id: 'usps',
    name: 'USPS',
    services: [
      { code: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', domestic: true },
      { code: 'PRIORITY_MAIL', name: 'Priority Mail', domestic: true },
      { code: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', domestic: true },
      { code: 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL', name: 'Priority Mail Express International', domestic: false },
      { code: 'PRIORITY_MAIL_INTERNATIONAL', name: 'Priority Mail International', domestic: false },
      { code: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', name: 'First-Class Package International Service', domestic: false },
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
      { code: 'FEDEX_INTERNATIONAL_PRIORITY', name: 'FedEx International Priority', domestic: false },
      { code: 'INTERNATIONAL_ECONOMY', name: 'FedEx International Economy', domestic: false },
      { code: 'FEDEX_INTERNATIONAL_CONNECT_PLUS', name: 'FedEx International Connect Plus', domestic: false },
    ],
  },
];

/**
 * A carrier's services from the US to another country: its international ones, and FedEx International Ground to
 * Canada, which FedEx codes FEDEX_GROUND as its domestic Ground.
 */
/** The carrier's name as merchants know it (UPS, USPS, FedEx); an id we do not know, as it was given. */
export function carrierName(id: string): string {
  return carrierCatalog.find((c) => c.id === id)?.name ?? id;
}

export function servicesAbroad(id: CarrierId, country: string): readonly ServiceInfo[] {
  return carrierCatalog.find((c) => c.id === id)!.services.filter((s) => !s.domestic || (id === 'fedex' && country === 'CA' && s.code === 'FEDEX_GROUND'));
}

/** A carrier's services between US addresses. */
export function domesticServices(id: CarrierId): readonly ServiceInfo[] {
  return carrierCatalog.find((c) => c.id === id)!.services.filter((s) => s.domestic);
}
