import type { CarrierId } from '../../../config.ts';
import type { ParcelSpec } from '../../carrier.ts';
import type { SurchargeType } from '../../../schemas/surcharge.ts';
import type { DimRule } from '../billable-weight.ts';

/** Published prices by zone (or USPS price group) label: `cents[i]` is the price up to the service's `upToLb[i]`. */
export type ZonePrices = Readonly<Record<string, readonly number[]>>;

/** One international service as its carrier's published list prices it from a U.S. origin. */
export interface IntlService {
  code: string;
  name: string;
  /** The weight steps of the published table, ascending: index i prices a parcel not over upToLb[i] pounds. */
  upToLb: readonly number[];
  /** The published (retail, list) price. */
  list: ZonePrices;
  /**
   * The account's own published price (USPS commercial), by the same steps; where it has no cell, the account pays
   * the list price less the list's discount, as the domestic simulator does.
   */
  account?: ZonePrices;
  /** Cents a pound by zone beyond the last step, up to maxWeightLb (FedEx prices 101–150 lb so). */
  perPoundAbove?: Readonly<Record<string, number>>;
  /** The carrier's own limit for the service; a parcel above it is refused. */
  maxWeightLb: number;
  /** Whether the price goes by dimensional weight (FCPIS, priced by actual weight, does not). */
  dimensional: boolean;
  /** Fuel surcharge as a fraction of transport and the fuel-bearing surcharges; 0 where none is charged. */
  fuel: number;
  /** Residential delivery charge, in cents, where the service draws one to that destination (see IntlPriceList.residential). */
  residentialCents?: number;
}

export interface IntlDestination {
  /** ISO 3166-1 alpha-2. */
  country: string;
  postalCode?: string;
  residential: boolean;
}

export interface IntlRequest {
  to: IntlDestination;
  parcel: ParcelSpec;
  /** Only these services, when given. */
  services?: readonly string[];
}

/** Where a list places a destination for a service, or why it cannot price the service there. */
export type ZoneAnswer = { zone: string } | { refused: string };

/** Named as shipd names surcharges on a rate (../../surcharges.ts). */
export type IntlSurchargeType = Extract<SurchargeType, 'fuel' | 'residential' | 'additional_handling' | 'oversize' | 'northern_canada'>;

/** A flat charge per package that a package of some size or weight draws (FedEx's international package charges). */
export interface SizeCharge {
  cents: number;
  longestIn?: number;
  secondLongestIn?: number;
  lengthPlusGirthIn?: number;
  cubicIn?: number;
  actualWeightLb?: number;
  /** A package drawing the charge by its size is billed at least this weight. */
  sizeMinBillableLb?: number;
}

/** A carrier's published international prices from a U.S. origin, and the rules that decide a destination's zone. */
export interface IntlPriceList {
  carrier: CarrierId;
  /** The documents the figures come from, their editions and where the copies read are kept. */
  source: string;
  /** The day the prices took effect (ISO date). */
  effective: string;
  dim: DimRule;
  services: readonly IntlService[];
  /** Our model of an account's discount off published transport, where the carrier publishes no account price. */
  accountDiscount: number;
  zone(service: string, to: IntlDestination): ZoneAnswer;
  /** A destination's own weight limit for the service, where it is lower than the service's (USPS's by country). */
  countryMaxWeightLb?(service: string, to: IntlDestination): number | undefined;
  /** Whether the service's residential charge applies to this destination (FedEx charges it only to Canada). */
  residential?(service: string, to: IntlDestination): boolean;
  /** Charges a destination draws beyond the residential one (FedEx's Northern Canada surcharge). */
  destinationCharges?(service: string, to: IntlDestination, weightLb: number): readonly { type: IntlSurchargeType; cents: number }[];
  /** Size and weight charges: oversize takes the place of additional handling, as in the domestic simulator. */
  additionalHandling?: { size: SizeCharge; weight: SizeCharge };
  oversize?: SizeCharge;
  /** The surcharges fuel is charged on, besides transport. */
  fuelBearing: readonly IntlSurchargeType[];
}

export interface IntlSurcharge {
  type: IntlSurchargeType;
  /** What the account pays. */
  amountCents: number;
  /** At published prices. */
  listAmountCents: number;
}

/** One service's price for a parcel: totals with every surcharge in them, and the surcharges themselves. */
export interface IntlPrice {
  service: string;
  serviceName: string;
  zone: string;
  /** The weight the price was read at: the step of the table, in pounds. */
  billableWeightLb: number;
  amountCents: number;
  listAmountCents: number;
  surcharges: IntlSurcharge[];
}
