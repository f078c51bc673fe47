import type { CarrierId } from '../config.ts';
import { dollars } from '../kernel/dollars.ts';

/**
 * What each carrier charges to carry a parcel at a declared value, and the most it takes, within the US: the
 * declared value (UPS, FedEx) or insured mail (USPS) that `insurance` buys. Cents of US dollars throughout.
 *
 * UPS, declared value: UPS is liable for $100 a package without charge ("UPS's liability for loss or damage is limited
 * to US$100.00 … unless a greater value is declared", UPS Tariff/Terms and Conditions of Service, as quoted in the
 * stored copies of UPS's pages, e.g. aic-components.com/power-equipment/best-answer-what-is-ups-declared-value-fee.html);
 * above it, $1.70 for each $100 (or part of $100) of the whole value, at least $5.11 a package: UPS's 2026 "Revised
 * Rates for Value-Added Services and Other Charges", effective December 22, 2025, as transcribed in
 * github.com/jfdelascarreras/logifacts lib/pricing/data/accessorials.json (commit e461df2, `declaredValue`), the PDF
 * itself not being in the stored material. Most a package may be declared at: $50,000 (UPS's Terms, "Articles having a
 * value or declared value of more than $50,000 … will not be accepted", as quoted in
 * sitesupply.com/shipping-policy; $500 for jewellery, which a shipment does not state, so not modelled).
 *
 * FedEx, declared value, U.S. package services: the FedEx Service Guide effective January 5, 2026, updated June 1,
 * 2026, kept in github.com/jfdelascarreras/logifacts at lib/pricing/data/sources/fedex/Service_Guide_2026.pdf (commit
 * 07dc5e0), the edition src/carriers/sim/prices/fedex-2026.ts reads, "Declared Value" under "Transportation fees and
 * related surcharges" (p. 134): nothing up to $100 (liability "limited to US$100" unless more is declared and paid
 * for, the guide's Terms and Conditions), $4.95 from $100.01 to $300, and above $300 $1.65 per $100 of declared value
 * (for each $100 "or fraction thereof": $4.95 is 3 × $1.65, so the $1.65 is on the whole value); the "2026" column of
 * FedEx's "2026 changes to FedEx surcharges & fees" (surcharge_and_fee_changes_2026.pdf, same folder) gives the same.
 * Most a package may be declared at: $50,000 for FedEx Priority Overnight, Standard Overnight, 2Day, Express Saver,
 * Ground and Home Delivery alike (Terms); the $500 of Envelope and Pak concerns packaging test mode does not price. A
 * package declared at $500 or more gets Direct Signature Required at no charge (the same entry), so nothing is added
 * for it.
 *
 * USPS, insured mail: the "Insurance" table of Notice 123 (Price List), domestic extra services, in the copy captured
 * on 2026-09-28 that src/carriers/sim/prices/usps-2026.ts reads (github.com/Lxr-max/WebHarbor
 * sites/usps/source_data/pricing.json, commit 16df088, `domestic_extra_services.Insurance`): $2.80 to $50, $3.50 to
 * $100, $4.50 to $200, $4.55 to $300, $6.05 to $400, $7.55 to $500, $9.05 to $600 (the $4.55 band is as the copy
 * gives it). The copy stops at $600: the price of more is not in the stored material, so test mode does not insure
 * above it rather than guess. USPS Ground Advantage, Priority Mail and Priority Mail Express include $100 of insurance
 * (usps.com's service pages as captured in the same repository's sites/usps/app.py), so only the value above $100 is
 * insured and priced; the most USPS insures is $5,000 (usps.com, same file: "Package insurance for loss up to
 * $5,000").
 *
 * Fuel is not charged on any of them: neither carrier's fuel surcharge list (see the price files) names declared value.
 */

interface InsuranceTable {
  /** The most a package may be declared or insured at, in cents. */
  limitCents: number;
  /** The value carried without charge, in cents. */
  includedCents: number;
  /** What the value above the included part costs; undefined where no stored figure prices it. */
  price: (valueCents: number) => number | undefined;
  /** Where price is undefined, why, for the merchant to read. */
  unpriced?: string;
}

const perHundred = (valueCents: number) => Math.ceil(valueCents / 10_000);

/** USPS's insurance bands (Notice 123, above): the top of each band and its fee, in cents. */
const uspsBands: readonly [upToCents: number, feeCents: number][] = [
  [5_000, 280],
  [10_000, 350],
  [20_000, 450],
  [30_000, 455],
  [40_000, 605],
  [50_000, 755],
  [60_000, 905],
];

const tables: Record<CarrierId, InsuranceTable> = {
  ups: {
    limitCents: 5_000_000,
    includedCents: 10_000,
    price: (value) => Math.max(511, perHundred(value) * 170),
  },
  fedex: {
    limitCents: 5_000_000,
    includedCents: 10_000,
    price: (value) => (value <= 30_000 ? 495 : perHundred(value) * 165),
  },
  usps: {
    limitCents: 500_000,
    includedCents: 10_000,
    price: (value) => uspsBands.find(([upTo]) => value - 10_000 <= upTo)?.[1],
    unpriced: "USPS's price for insuring more than $600 above the $100 its services include is not in the Notice 123 copy test mode prices from; insure this parcel for at most $700 in test mode",
  },
};

/** The carrier's most, in cents: what `insurance_above_limit` names. */
export const insuranceLimitCents = (carrier: CarrierId): number => tables[carrier].limitCents;

export type InsuranceCharge = { ok: true; cents: number } | { ok: false; code: 'insurance_above_limit' | 'service_unavailable'; detail: string };


/** What carrying a package declared at `valueCents` costs with this carrier in the US, from its published figures. */
export function insuranceCharge(carrier: { id: CarrierId; name: string }, valueCents: number): InsuranceCharge {
  const t = tables[carrier.id];
  if (valueCents > t.limitCents) {
    return { ok: false, code: 'insurance_above_limit', detail: `${carrier.name} insures a package for at most ${dollars(t.limitCents)}; this one asks ${dollars(valueCents)}` };
  }
  if (valueCents <= t.includedCents) return { ok: true, cents: 0 };
  const cents = t.price(valueCents);
  if (cents === undefined) return { ok: false, code: 'service_unavailable', detail: t.unpriced! };
  return { ok: true, cents };
}
