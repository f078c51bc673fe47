import type { Carrier } from '../../carriers/carrier.ts';
import { holdLocation, holdNeeds, optionAsks, optionRefusal } from '../../carriers/options.ts';
import { carrierName } from '../../carriers/catalog.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { ShipmentOptions } from '../../schemas/options.ts';
import type { Parcel } from '../../schemas/order.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { weightInLb } from '../orders/parcels.ts';

/**
 * Where the options contradict each other or the parcel, whatever the carrier (each a 400 with its pointer):
 * - `delivery_confirmation` with `signature`: a signature service confirms delivery already (USPS's Signature
 *   Confirmation and Adult Signature include the electronic delivery record that USPS Tracking gives);
 * - `saturday_delivery` with `hold_for_pickup`: a held parcel is not delivered on any day;
 * - `hold_for_pickup` without `hold_location`, or the other way round: every carrier holds a parcel only at a location
 *   given by its id;
 * - `dry_ice` heavier than a box: UPS's DryIceWeight "Cannot be more than package weight", and it is part of it
 *   at every carrier (each box of several carries the dry ice asked);
 * - alcohol to a consumer without an adult's signature: FedEx takes wine to consumers only from licensees with Adult
 *   Signature Required, and UPS likewise (its alcohol agreement); sent without `signature`, it is asked for rather
 *   than added behind the client's back;
 * - `hazmat` with an indirect signature: "Packages containing hazardous materials are not eligible for signature
 *   release, driver release, or indirect delivery" (FedEx Service Guide), and indirect signatures are FedEx's alone.
 */
export function optionErrors(options: ShipmentOptions | undefined, parcels: readonly Parcel[], base = '/options'): FieldError[] {
  if (!options) return [];
  const errors: FieldError[] = [];
  const at = (path: string, detail: string) => errors.push({ in: 'body', pointer: `${base}${path}`, detail });
  if (options.delivery_confirmation && options.signature) {
    at('/delivery_confirmation', 'a signature on delivery confirms the delivery already; send signature or delivery_confirmation, not both');
  }
  if (options.saturday_delivery && options.hold_for_pickup) at('/saturday_delivery', 'a parcel held for pickup is not delivered; send saturday_delivery or hold_for_pickup, not both');
  if (options.hold_for_pickup && !options.hold_location) at('/hold_location', 'is required with hold_for_pickup: the carrier and id of the location to hold the parcel at, as GET /carrier-locations finds them');
  if (options.hold_location && !options.hold_for_pickup) at('/hold_for_pickup', 'must be true with hold_location, or leave hold_location out');
  const lightest = parcels.reduce<Parcel | undefined>((min, p) => (min && weightInLb(min.weight) <= weightInLb(p.weight) ? min : p), undefined);
  if (options.dry_ice && lightest && weightInLb(options.dry_ice.weight) > weightInLb(lightest.weight)) {
    const which = parcels.length > 1 ? 'its lightest box' : 'the parcel';
    at('/dry_ice/weight', `is more than ${which} weighs (${lightest.weight.value} ${lightest.weight.unit}); the dry ice is part of each box's weight`);
  }
  if (options.alcohol?.recipient === 'consumer' && options.signature !== 'adult') {
    at('/signature', 'alcohol to a consumer is delivered only against the signature of an adult: send signature "adult"');
  }
  if (options.hazmat && options.signature === 'indirect') at('/signature', 'dangerous goods are not released on an indirect signature; send "standard" or "adult"');
  return errors;
}

/**
 * What the carrier of the location a parcel is held at needs of the addresses beyond a label's (holdNeeds): the
 * recipient's email and phone and the sender's first and last name, email and phone for USPS. `at` points at the field
 * of the request, or the order or location, that gives each.
 */
export function holdPartyErrors(options: ShipmentOptions | undefined, from: AnyAddress, to: AnyAddress, at: (side: 'ship_to' | 'ship_from', field: string) => string): FieldError[] {
  const held = holdLocation(options);
  const needs = held && holdNeeds[held.carrier];
  if (!held || !needs) return [];
  const name = carrierName(held.carrier);
  const why = `to hold a parcel at a ${name} location (${name} tells the recipient it is waiting)`;
  const errors: FieldError[] = [];
  for (const f of needs.recipient) if (!to[f]) errors.push({ in: 'body', pointer: at('ship_to', f), detail: `the recipient's ${f} is required ${why}` });
  for (const f of needs.sender) {
    const lacking = f === 'name' ? (from.name ?? '').trim().split(/\s+/).length < 2 : !from[f];
    const what = f === 'name' ? 'name must be a first and a last name' : `${f} is required`;
    if (lacking) errors.push({ in: 'body', pointer: at('ship_from', f), detail: `the sender's ${what} ${why}` });
  }
  return errors;
}

/** The 400 for optionErrors, if any. */
export function checkOptions(options: ShipmentOptions | undefined, parcels: readonly Parcel[], base = '/options'): void {
  const errors = optionErrors(options, parcels, base);
  if (errors.length > 0) throw new ApiError('validation_failed', errors.map((e) => `${e.pointer} ${e.detail}`).join('; '), errors);
}

/**
 * A service the client pinned (`services`, or an order's requested service) that cannot do an option asked: the
 * request contradicts itself, as Saturday delivery by a ground service does, so it is a 400 rather than an empty
 * rate shop.
 */
export function pinnedServiceErrors(carriers: readonly Carrier[], pinned: readonly string[], options: ShipmentOptions | undefined, residential: boolean, abroad = false): FieldError[] {
  const asks = optionAsks(options);
  if (asks.length === 0) return [];
  return carriers.flatMap((c) =>
    c.services
      .filter((s) => pinned.includes(s.code))
      .flatMap((s) => {
        const refused = optionRefusal(c, s, asks, residential, abroad);
        return refused ? [{ in: 'body' as const, pointer: refused.pointer, detail: `${refused.detail}, and services pins ${s.code}` }] : [];
      }),
  );
}

/**
 * How a rate shop keeps its options: in the schema's field order, whatever order the JSON came in, so the same
 * options compare equal; null for none.
 */
export function storedOptions(options: ShipmentOptions | undefined): string | null {
  if (!options || optionAsks(options).length === 0) return null;
  const o = options;
  const ordered = {
    signature: o.signature,
    saturday_delivery: o.saturday_delivery || undefined,
    delivery_confirmation: o.delivery_confirmation || undefined,
    hold_for_pickup: o.hold_for_pickup || undefined,
    hold_location: o.hold_location && { carrier: o.hold_location.carrier, id: o.hold_location.id },
    additional_handling: o.additional_handling || undefined,
    non_machinable: o.non_machinable || undefined,
    dry_ice: o.dry_ice && { weight: { value: o.dry_ice.weight.value, unit: o.dry_ice.weight.unit } },
    alcohol: o.alcohol && { recipient: o.alcohol.recipient },
    hazmat: o.hazmat,
    carbon_neutral: o.carbon_neutral || undefined,
  };
  return JSON.stringify(ordered);
}
