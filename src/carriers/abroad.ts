import type { LabelFormat, LabelResolution, LabelSize } from '../labels/label-data.ts';
import type { Address, AnyAddress } from '../schemas/address.ts';
import type { ContentsType, Customs } from '../schemas/customs.ts';
import { failure, ok, type CarrierResult, type ParcelSpec, type PurchaseRequest, type RateRequest } from './carrier.ts';
import { kilograms, lineValue, totalValues } from '../labels/customs-figures.ts';
import type { CarrierId } from '../config.ts';
import { refusalAbroad } from './carrier-limits.ts';
import type { ShipmentOptions } from '../schemas/options.ts';

/**
 * A shipment from the US across a customs border, as the live adapters' international builders take it: the
 * fields of RateRequest and PurchaseRequest they read, so a request of either (with its checked declaration) can be
 * handed over as it is.
 */
export interface AbroadShipment {
  from: Address;
  to: AnyAddress;
  customs: Customs;
  /**
   * Every box: UPS and FedEx send them as one shipment under one declaration; USPS a label per box, each with the
   * lines of its own box (boxDeclarations).
   */
  parcels: ParcelSpec[];
  shipDate: Date;
  /** The delivery options asked, which the carrier does abroad (carriers/options.ts optionCapabilitiesAbroad). */
  options?: ShipmentOptions | undefined;
}

/** A label abroad to buy: the service chosen from a quote, as PurchaseRequest says it. */
export interface AbroadPurchase extends AbroadShipment {
  service: string;
  labelFormat: LabelFormat;
  /** As PurchaseRequest has them. */
  labelSize?: LabelSize;
  labelResolution?: LabelResolution;
  /** The order number, standing in for a missing invoice number. */
  reference?: string;
  references?: string[];
  idempotencyKey: string;
}

/** The destination's ISO 3166-1 code, upper case. */
export const countryOf = (a: AnyAddress): string => (a.country ?? 'US').toUpperCase();

/** Whether the declaration states goods of no commercial value: documents declared at zero. */
export const documentsOnly = (c: Customs): boolean => c.contents_type === 'documents' && c.items.every((i) => Number(i.unit_value.amount) === 0);

/** The one currency of the declaration's values (the checks before any carrier call make it one). */
export const customsCurrency = (c: Customs): string => c.items[0]!.unit_value.currency.toUpperCase();

/** A line's value, quantity × unit value, as a number in the declaration's currency. */
export const lineAmount = (item: Customs['items'][number]): number => Number(lineValue(item).amount);

/** The declared value of the whole parcel, as a number in the declaration's currency. */
export const declaredAmount = (c: Customs): number => Number(totalValues(c.items)[0]!.amount);

/** What one unit of the line weighs, in pounds. */
export const unitPounds = (item: Customs['items'][number]): number => kilograms(item.weight) / kgPerPound;
export const kgPerPound = 0.45359237;

/**
 * The US export filing the declaration cites, as the Foreign Trade Regulations name it: the ITN when EEI was
 * filed, else the exemption given, else the one that applies by law to a declaration the checks let through without
 * either (30.36 to Canada, else 30.37(a): every Schedule B number worth $2,500 or less).
 */
export function exportFiling(c: Customs, to: AnyAddress): { itn: string } | { exemption: string } {
  if (c.aes_itn) return { itn: c.aes_itn.toUpperCase() };
  if (c.eel_pfc) return { exemption: c.eel_pfc };
  return { exemption: countryOf(to) === 'CA' ? 'NOEEI 30.36' : 'NOEEI 30.37(a)' };
}

/** What the parcel is for, in words every carrier's list has a value for. */
export const purposes: Readonly<Record<ContentsType, 'sale' | 'gift' | 'sample' | 'return' | 'documents' | 'other'>> = {
  merchandise: 'sale',
  gift: 'gift',
  sample: 'sample',
  returned_goods: 'return',
  documents: 'documents',
  other: 'other',
};

/** A phone number as digits with its country's calling code kept when the client wrote one (+44 …). */
export const phoneDigits = (phone: string | undefined): string => (phone ?? '').replace(/\D/g, '');

/**
 * A rate or purchase request abroad as the international builders take it, or why the carrier is not asked: the
 * declaration is missing (the checks before any carrier call require one), or it is a return label from abroad,
 * which shipd does not buy yet.
 */
export function abroad<R extends RateRequest | PurchaseRequest>(request: R, carrier: { id: CarrierId; name: string }): CarrierResult<R & { customs: Customs }> {
  if (request.isReturn) return failure('not_serviced', `shipd does not buy ${carrier.name} return labels from another country yet`);
  if (!request.customs) return failure('not_serviced', `A ${carrier.name} shipment to another country needs its customs declaration`);
  return refusalAbroad(carrier, request) ?? ok({ ...request, customs: request.customs });
}

/**
 * The declaration split box by box, for a carrier that prints a customs form on each box's label (USPS abroad): each
 * box gets the lines that name it (customs.items[].parcel_index). A declaration of several boxes that does not name
 * each line's box, or leaves a box with no line, cannot be split without guessing what is in which box, so is refused
 * naming the field to give.
 */
export function boxDeclarations(customs: Customs, boxes: number, carrierName: string): CarrierResult<Customs[]> {
  if (boxes === 1) return ok([customs]);
  if (customs.items.some((i) => i.parcel_index === undefined)) {
    return failure('not_serviced', `${carrierName} prints a customs form on each box's label; name the box of every line (customs/items/0/parcel_index) so each form lists what its box holds`);
  }
  const split = Array.from({ length: boxes }, (_, b) => ({ ...customs, items: customs.items.filter((i) => i.parcel_index === b) }));
  const empty = split.findIndex((c) => c.items.length === 0);
  if (empty >= 0) return failure('not_serviced', `${carrierName} prints a customs form on each box's label, and no line names box ${empty} (customs/items/*/parcel_index): each box's form needs at least one line`);
  return ok(split);
}
