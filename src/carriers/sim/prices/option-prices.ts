import type { CarrierId } from '../../../config.ts';
import type { OptionAsk } from '../../options.ts';
import { zoneBands, type ZoneCharge } from './types.ts';

/** A published charge for one option, per package: the same everywhere, or by zone band. */
export interface OptionPrice {
  /** What the account pays. */
  cents: number | ZoneCharge;
  /** The retail (list) charge, where the carrier publishes one apart from the account's (USPS retail and commercial). */
  listCents?: number;
  /** The services it is published for; absent, every service that does the option (carriers/options.ts). */
  services?: readonly string[];
}

const fedexExpress = ['FEDEX_EXPRESS_SAVER', 'FEDEX_2_DAY', 'STANDARD_OVERNIGHT', 'PRIORITY_OVERNIGHT'];

/**
 * What test mode charges for each option, per package, from the carriers' published lists; an option a carrier does
 * (carriers/options.ts) without a price here is refused in test mode rather than priced by a guess. Fuel is not
 * added on these charges.
 *
 * FedEx: the FedEx Service Guide effective January 5, 2026, updated June 1, 2026, kept in
 * github.com/jfdelascarreras/logifacts at lib/pricing/data/sources/fedex/Service_Guide_2026.pdf (commit 07dc5e0), the
 * edition ./fedex-2026.ts reads, "Other transportation-related fees", U.S. Package Services: FedEx Delivery Signature
 * Options $7.60 per package Indirect Signature Required, $7.60 Direct Signature Required, $10 Adult Signature Required
 * (p. 137); Saturday Delivery $16 per package (First, Priority and Standard Overnight, 2Day; p. 142); Dangerous Goods,
 * dry ice only, $8.50 per package on FedEx Priority Overnight, Standard Overnight, 2Day and Express Saver (p. 133);
 * Hazardous Materials: FedEx Ground $57.25 per package, FedEx Home Delivery "Limited Quantity only; no charge applies"
 * and "no surcharge applies for Limited Quantity" (p. 139); Additional Handling Surcharge, Packaging (non-standard
 * packaging): zone 2 $26.50, zones 3–4 $30.75, zones 5–6 $33, zones 7+ $33.75 per package (p. 127). The "2026" column
 * of FedEx's "2026 changes to FedEx surcharges & fees" (4/2026; surcharge_and_fee_changes_2026.pdf, same folder)
 * gives the same amounts (Delivery Signature Options, Dangerous Goods – Dry Ice, Hazardous Materials, Additional
 * Handling Packaging); it has no Saturday delivery row, the charge being unchanged from 2025's $16. That $57.25 is
 * for hazardous materials in full, which no option here asks (`hazmat` is limited quantity, free, or batteries in
 * equipment), so it is not used.
 * Not found in any of them, read 2026-11-27: a charge for alcohol (the guide sends the shipper to the FedEx Alcohol
 * Shipping Agreement, p. 148), for lithium batteries in equipment, and for dry ice by FedEx Ground: the 2026 changes
 * table names "U.S. Package Services" (Ground and Home Delivery among them) for the dry-ice charge, while the Service
 * Guide's own Dangerous Goods entry lists only the express services, so Ground stays unpriced rather than priced on
 * the looser of two FedEx texts. Nor in FedEx's 2026 surcharge figures as transcribed in the same repository's
 * lib/pricing/data/fedex-accessorials.json (commit eaac9f1).
 * Hold at Location: no charge. The 2026 guide lists none for it (read 2026-11-28: its one hold charge, p. 45, is for an
 * overnight hold at the customer's request, and p. 162 waives the reroute charge for a package changed to Hold at
 * Location in the same city), and FedEx's own FAQ on its retail pickup locations says "There is no premium fee or
 * surcharge for dropping off or receiving a package at these locations" (https://www.fedex.com/en-us/faq/onsite.html,
 * read 2026-11-28).
 *
 * UPS: additional handling for packaging (a package not in a corrugated box: AdditionalHandlingIndicator), zone 2
 * $26.75, zones 3–4 $31.00, zones 5–6 $33.25, zones 7 and up $33.75, from UPS's 2026 "Revised Rates for Value-Added
 * Services and Other Charges" (effective December 22, 2025) as transcribed in github.com/jfdelascarreras/logifacts,
 * lib/pricing/data/accessorials.json (commit e461df2), the source ./ups-2026.ts uses for its other charges. Delivery
 * Confirmation Signature Required (DCISType 2), $7.70 per package on every UPS service in 2026: not from a UPS
 * document, which the stored material does not hold, but from a parcel-audit firm's statement of UPS's 2026 rate,
 * "In 2026, Signature Required costs $7.70 per package on any UPS service tier"
 * (https://www.darrigoconsulting.com/blog/what-does-ups-signature-required-charge-mean, dated January 22, 2026), the
 * only 2026 figure for it found; replace it with UPS's own when a copy of the guide is found. Not found in the stored
 * material, read 2026-11-27: UPS's 2026 (or 2025) charges for Delivery Confirmation Adult Signature Required, Saturday
 * delivery (the logifacts transcription leaves it empty, "rate not present in accessorial sheet"; UPS's 2026 daily
 * rates workbook in the same repository, Invoices skills/ups-plan-invoice-csv/daily-rates-us-en.xlsx, holds the
 * transportation rates only), dry ice, alcohol and carbon neutral; nor, searched 2026-11-28, any charge (or its
 * absence) for holding a parcel at a UPS Access Point (ShipmentIndicationType 01).
 *
 * USPS: Notice 123 (Price List), domestic extra services, in the copy captured on 2026-09-28 that ./usps-2026.ts
 * reads (github.com/Lxr-max/WebHarbor sites/usps/source_data/pricing.json, commit 16df088,
 * `domestic_extra_services`), the edition in force then, effective 2026-07-12 (see ./usps-2026.ts): Signature
 * Confirmation, USPS Ground Advantage — Commercial $4.15 and — Retail $5.15, Priority Mail $5.15 (the copy gives one
 * Priority Mail figure, so the account pays it too); Adult Signature Required $9.70, one figure for every class; USPS
 * Tracking "Per piece" $0.00 (its one charge, $0.36, is for USPS Marketing Mail parcels, which shipd does not sell).
 * Hold For Pickup: "There is no fee for Hold for Pickup service", USPS's own FAQ "Hold for Pickup Service"
 * (https://faq.usps.com/articles/Knowledge/Hold-for-Pickup-Service, read 2026-11-28), which names Priority Mail
 * Express, Priority Mail and USPS Ground Advantage among the classes that take it.
 * Not in that copy or any other stored material searched on 2026-11-27: Priority Mail Express's Signature Requested
 * (981), a charge for a nonstandard (non-machinable) parcel beside the length and volume fees, any charge for dry ice
 * or hazardous materials, and the insurance fee above $600 (carriers/insurance.ts).
 *
 * Searched again on 2026-11-27 for the unpriced ones, with nothing usable found:
 * - FedEx: Service_Guide_2026.pdf (logifacts, above) read whole: "Dangerous Goods" lists $8.50 per package for dry
 *   ice on the express services only, with no Ground row; "Alcoholic beverages" (p. 148) names no charge, only the
 *   FedEx Alcohol Shipping Agreement; lithium batteries appear as handling rules (Section II in FedEx packaging, drop
 *   box acceptance), never with a charge. surcharge_and_fee_changes_2026.pdf has no battery row, and its one alcohol
 *   row is the ATF clearance fee on international shipments.
 * - UPS: logifacts' sources/ups/README.md names UPS's "preview-accessorial-us-en.pdf" (Value-Added Services and
 *   Other Charges, effective 2025-12-22) as the source of its accessorials.json, but the PDF is not in the repository,
 *   and the transcription carries no Saturday delivery, adult signature, dry ice, alcohol or carbon neutral amount.
 *   The only published UPS figure found for carbon neutral is UPS's own press release of 2020-06-01 (GlobeNewswire:
 *   $0.05 per package by Ground, $0.20 by Next Day Air, 2nd Day Air and 3 Day Select): six years older than every
 *   other UPS price here, so not used.
 *   The parcel-audit firm's pages on UPS's adult signature and Saturday delivery charges (darrigoconsulting.com, the
 *   source of the $7.70 above) state no amount in what is stored of them.
 * - USPS: Labels 3.9.4 and shipping-options 3.1.22 (github.com/Thecodergabe/shipstack specs/usps/) define 981 and the
 *   dry-ice and hazmat codes but price none of them; no other copy of the 2026 Notice 123 extra services was found.
 */
export const optionPrices: Record<CarrierId, Partial<Record<OptionAsk, OptionPrice | readonly OptionPrice[]>>> = {
  fedex: {
    'signature:standard': { cents: 760 },
    'signature:indirect': { cents: 760 },
    'signature:adult': { cents: 1000 },
    saturday_delivery: { cents: 1600 },
    dry_ice: { cents: 850, services: fedexExpress },
    'hazmat:limited_quantity': { cents: 0 },
    additional_handling: { cents: zoneBands(2650, 3075, 3300, 3375) },
    hold_for_pickup: { cents: 0 },
  },
  ups: {
    'signature:standard': { cents: 770 },
    additional_handling: { cents: zoneBands(2675, 3100, 3325, 3375) },
  },
  usps: {
    'signature:standard': [
      { cents: 415, listCents: 515, services: ['USPS_GROUND_ADVANTAGE'] },
      { cents: 515, services: ['PRIORITY_MAIL'] },
    ],
    'signature:adult': { cents: 970 },
    delivery_confirmation: { cents: 0 },
    hold_for_pickup: { cents: 0 },
  },
};

/**
 * The published charge for an ask on a service to a zone, to the account and at list (the same unless the carrier
 * publishes the two apart), or undefined where test mode has none.
 */
export function optionPriceCents(carrier: CarrierId, service: string, ask: OptionAsk, zone: string): { cents: number; listCents: number } | undefined {
  const listed = optionPrices[carrier][ask];
  const prices: readonly OptionPrice[] = listed === undefined ? [] : 'cents' in listed ? [listed] : listed;
  const price = prices.find((p) => !p.services || p.services.includes(service));
  if (!price) return undefined;
  const cents = typeof price.cents === 'number' ? price.cents : price.cents[zone];
  return cents === undefined ? undefined : { cents, listCents: price.listCents ?? cents };
}
