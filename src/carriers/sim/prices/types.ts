import type { CarrierId } from '../../../config.ts';

/** One service's published prices to one zone: `cents[i]` is the price of `fromLb + i` pounds. */
export interface WeightSteps {
  fromLb: number;
  cents: readonly number[];
}

/** A published rate table: zone label, as the carrier prints it, to its weight steps. */
export type RateTable = Readonly<Record<string, WeightSteps>>;

/** A charge that depends on the zone, by zone label. */
export type ZoneCharge = Readonly<Record<string, number>>;

/** A carrier's list of destination ZIP codes that draw a delivery area surcharge, by category (see ./delivery-areas.ts). */
export interface DeliveryAreaZips {
  /** The list, its edition and where the copy we read is kept. */
  source: string;
  /** The day the list took effect (ISO date). */
  effective: string;
  /** Category to its ZIP codes, in the compact `prefix:suffixes` form ./delivery-areas.ts reads. */
  categories: Readonly<Record<string, readonly string[]>>;
}

/** A carrier's published prices for one year, transcribed from its own price list. */
export interface PriceList {
  carrier: CarrierId;
  /** The document the figures come from, its edition and where the copy we read is kept. */
  source: string;
  /** The day the prices took effect (ISO date). */
  effective: string;
  /** Cubic inches per pound of dimensional weight. */
  dimDivisor: number;
  /** Service code to its published table. */
  services: Readonly<Record<string, RateTable>>;
  /** Zone labels from nearest to farthest: farther never costs less (other labels, e.g. Alaska, are not ranked). */
  distanceZones: readonly string[];
  /** Service codes from slowest to fastest: a faster service never costs less at the same zone and weight. */
  speedOrder: readonly string[];
  /** Residential delivery charge by service code, in cents; a service not listed has none. */
  residentialCents: Readonly<Record<string, number>>;
  /**
   * Fuel surcharge, as a fraction of transport and the fuel-bearing surcharges: one figure for every service, or one
   * per service code (UPS and FedEx publish a ground and an air percentage each week); a service not listed bears none.
   */
  fuel: number | Readonly<Record<string, number>>;
  /**
   * Our model of an account's negotiated discount off published transport prices (not a published figure): the
   * default, which SHIPD_SIM_UPS_DISCOUNT and SHIPD_SIM_FEDEX_DISCOUNT replace.
   */
  accountDiscount: number;
  /**
   * Service code to the carrier's own published account price table (USPS commercial prices): at a cell it holds,
   * the account pays that transport price instead of the discount off the published one.
   */
  accountServices?: Readonly<Record<string, RateTable>>;
  /** Size and weight surcharges, for a carrier that publishes them by zone band. */
  additionalHandling?: {
    longestIn: number;
    secondLongestIn: number;
    lengthPlusGirthIn: number;
    /** A package over a size limit is billed at least this weight. */
    dimensionMinBillableLb: number;
    dimensionCents: ZoneCharge;
    /** Actual weight above which the weight surcharge applies. */
    actualWeightLb: number;
    weightCents: ZoneCharge;
    /** Cubic inches (sides rounded to the inch) above which the dimension surcharge applies too, where published. */
    cubicIn?: number;
    /** False where the carrier's list of fuel-bearing surcharges leaves additional handling out. */
    fuelBearing?: boolean;
  };
  /**
   * Delivery area surcharge, per package, by the destination ZIP code's category on the carrier's list: one charge to
   * a business and one to a home. Fuel-bearing. A carrier without it charges none.
   */
  deliveryArea?: {
    zips: DeliveryAreaZips;
    cents: Readonly<Record<string, { commercial: number; residential: number }>>;
  };
  oversize?: {
    longestIn: number;
    lengthPlusGirthIn: number;
    minBillableLb: number;
    cents: ZoneCharge;
    /** The charge to a residential address, where the carrier publishes a separate one. */
    residentialCents?: ZoneCharge;
    /** Cubic inches above which the package is oversize too, where published. */
    cubicIn?: number;
    /** Actual weight above which the package is oversize too, where published. */
    actualWeightLb?: number;
  };
}

/** The published price of `lb` pounds to `zone`, or undefined when the table has no such cell. */
export function publishedCents(table: RateTable | undefined, zone: string, lb: number): number | undefined {
  const steps = table?.[zone];
  if (!steps) return undefined;
  return steps.cents[lb - steps.fromLb];
}

/** A charge FedEx and UPS publish in zone bands (2; 3–4; 5–6; 7 and up), spelled out per zone label. */
export function zoneBands(zone2: number, zones3to4: number, zones5to6: number, zones7to8: number): ZoneCharge {
  return { '2': zone2, '3': zones3to4, '4': zones3to4, '5': zones5to6, '6': zones5to6, '7': zones7to8, '8': zones7to8 };
}
