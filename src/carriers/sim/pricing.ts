import type { ParcelSpec } from '../carrier.ts';
import { includedSurcharges, type Surcharge } from '../surcharges.ts';
import { nearestInch } from './billable-weight.ts';
import { deliveryAreaOf } from './prices/delivery-areas.ts';
import { publishedCents, type PriceList } from './prices/types.ts';
import type { SimCarrierTable, SimService } from './tables.ts';
import type { Zone } from './zones.ts';

export interface Price {
  amountCents: number;
  listAmountCents: number;
}

export interface ItemizedPrice extends Price {
  /** What the account pays for each surcharge in amountCents. */
  surcharges: Surcharge[];
}

export interface PricedParcel {
  parcel: ParcelSpec;
  /** Actual or dimensional weight, whichever is more, in whole pounds. */
  billableLb: number;
  zone: Zone;
  residential: boolean;
  /** The destination ZIP code, which decides a delivery area surcharge. */
  toZip: string;
}

/** What a service costs for a parcel at list and to the account (itemizedPriceFor), without its surcharges. */
export function priceFor(carrier: SimCarrierTable, service: SimService, p: PricedParcel, accountDiscount: number): Price | undefined {
  const price = itemizedPriceFor(carrier, service, p, accountDiscount);
  return price && { amountCents: price.amountCents, listAmountCents: price.listAmountCents };
}

/**
 * What a service costs for a parcel, from the carrier's published list, and what an account with this discount
 * off transport pays, with the surcharges the account pays in it. Undefined when the list has no price for that
 * zone and weight: the simulator then does not offer it.
 */
export function itemizedPriceFor(carrier: SimCarrierTable, service: SimService, p: PricedParcel, accountDiscount: number): ItemizedPrice | undefined {
  // List = the published transport price plus the published surcharges (residential delivery, delivery area,
  // additional handling or oversize) plus the week's fuel percentage on transport and the fuel-bearing surcharges;
  // the account pays the transport price less its discount, surcharges at list, and fuel on what it pays (the
  // carriers assess fuel on the net rate).
  const list = carrier.prices;
  const code = service.code;
  const handling = handlingFor(list, p.parcel, p.zone.label, p.residential);
  if (!handling) return undefined;
  const billedLb = Math.max(p.billableLb, handling.minBillableLb);
  const transport = publishedCents(list.services[code], p.zone.label, billedLb);
  if (transport === undefined) return undefined;
  // Residential delivery and delivery area: both go by where the parcel is delivered, and fuel is charged on both.
  const residentialCents = p.residential ? (list.residentialCents[code] ?? 0) : 0;
  const areaCents = deliveryAreaCents(list, p.toZip, p.residential);
  const destination = residentialCents + areaCents;
  const surcharges = destination + handling.cents;
  const fuelBearing = destination + (handling.fuelBearing ? handling.cents : 0);
  const fuel = typeof list.fuel === 'number' ? list.fuel : (list.fuel[code] ?? 0);
  const fuelOn = (t: number) => Math.round((t + fuelBearing) * fuel);
  const total = (t: number) => t + surcharges + fuelOn(t);
  // A carrier that publishes the account's own price (USPS commercial) is priced from it; a cell it lacks falls back to the discount.
  const account = publishedCents(list.accountServices?.[code], p.zone.label, billedLb) ?? Math.round(transport * (1 - accountDiscount));
  const amountCents = total(account);
  const itemized: Surcharge[] = [
    { type: 'residential', amountCents: residentialCents },
    { type: 'delivery_area', amountCents: areaCents },
    { type: handling.type, amountCents: handling.cents },
    { type: 'fuel', amountCents: fuelOn(account) },
  ];
  return { amountCents, listAmountCents: total(transport), surcharges: includedSurcharges(amountCents, itemized) };
}

/** The delivery area surcharge to this ZIP code: the commercial or residential charge of its category, none off the list. */
function deliveryAreaCents(list: PriceList, toZip: string, residential: boolean): number {
  const area = list.deliveryArea;
  const category = area ? deliveryAreaOf(area.zips, toZip) : undefined;
  const cents = category === undefined ? undefined : area?.cents[category];
  if (!cents) return 0;
  return residential ? cents.residential : cents.commercial;
}

/**
 * The size and weight surcharge a package draws (to a home, where the list has a residential figure), the weight it
 * is billed at least, and whether fuel is charged on it. Oversize takes the place of additional handling; of the
 * additional handling charges that apply, the package pays the highest one (UPS charges one per package; FedEx's
 * stored guide does not say how they combine, so test mode does the same). Undefined when a charge applies but the
 * list has no figure for the zone.
 */
function handlingFor(
  list: PriceList,
  parcel: ParcelSpec,
  zone: string,
  residential: boolean,
): { type: 'oversize' | 'additional_handling'; cents: number; minBillableLb: number; fuelBearing: boolean } | undefined {
  const d = parcel.dimensionsIn;
  const [longest, second, third] = d ? ([d.length, d.width, d.height].map(nearestInch).sort((a, b) => b - a) as [number, number, number]) : [0, 0, 0];
  const lengthPlusGirth = longest + 2 * (second + third);
  const cubic = longest * second * third;
  const above = (value: number, limit: number | undefined) => limit !== undefined && value > limit;
  const { oversize: o, additionalHandling: ah } = list;
  if (o && (longest > o.longestIn || lengthPlusGirth > o.lengthPlusGirthIn || above(cubic, o.cubicIn) || above(parcel.weightLb, o.actualWeightLb))) {
    const cents = (residential && o.residentialCents ? o.residentialCents : o.cents)[zone];
    return cents === undefined ? undefined : { type: 'oversize', cents, minBillableLb: o.minBillableLb, fuelBearing: true };
  }
  if (!ah) return { type: 'additional_handling', cents: 0, minBillableLb: 0, fuelBearing: true };
  const bySize = longest > ah.longestIn || second > ah.secondLongestIn || lengthPlusGirth > ah.lengthPlusGirthIn || above(cubic, ah.cubicIn);
  const size = bySize ? ah.dimensionCents[zone] : 0;
  const weight = parcel.weightLb > ah.actualWeightLb ? ah.weightCents[zone] : 0;
  if (size === undefined || weight === undefined) return undefined;
  return { type: 'additional_handling', cents: Math.max(size, weight), minBillableLb: bySize ? ah.dimensionMinBillableLb : 0, fuelBearing: ah.fuelBearing !== false };
}

/**
 * A shipment's price from its boxes' prices: each box is billed on its own (its billable weight and its per-package
 * surcharges), and the shipment costs their sum. Undefined when any box has no price.
 */
export function shipmentPrice(boxes: (ItemizedPrice | undefined)[]): ItemizedPrice | undefined {
  if (boxes.some((b) => b === undefined)) return undefined;
  const priced = boxes as ItemizedPrice[];
  if (priced.length === 1) return priced[0];
  const amountCents = priced.reduce((sum, b) => sum + b.amountCents, 0);
  return {
    amountCents,
    listAmountCents: priced.reduce((sum, b) => sum + b.listAmountCents, 0),
    surcharges: includedSurcharges(amountCents, priced.flatMap((b) => b.surcharges)),
  };
}
