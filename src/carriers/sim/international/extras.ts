import type { CarrierId } from '../../../config.ts';
import { dollars } from '../../../kernel/dollars.ts';
import type { OptionAsk } from '../../options.ts';

/*
 * What test mode charges abroad for a declared value or insurance and for the delivery options carriers/options.ts
 * offers abroad, from the carriers' published figures; anything without one is refused in test mode rather than
 * priced by a guess.
 *
 * FedEx: the FedEx Service Guide 2026 (github.com/jfdelascarreras/logifacts
 * lib/pricing/data/sources/fedex/Service_Guide_2026.pdf, commit eaac9f1, the edition ./fedex-2026.ts prices from),
 * "Transportation fees and related surcharges":
 * - Declared Value: International Package Services "$1.65 per $100 of value in excess of $100 or $9.07 per lb.,
 *   whichever is greater" (the carriage limit being the greater of the two, as the freight entry's "greater of US$100
 *   or US$1 per pound" in the Terms reads, each $100 "or fraction thereof"); FedEx International Ground, with the
 *   U.S. package services, "$4.95 for shipments valued between $100.01–$300" and "$1.65 per $100 of declared value for
 *   shipments valued in excess of $300". The guide states no maximum declared value for international shipments (its
 *   Terms E names U.S. services only), so test mode sets none; live mode leaves it to FedEx.
 * - FedEx Delivery Signature Options: International Package Services (except International Ground) $7.60 per shipment
 *   for Indirect and for Direct Signature Required, $10 per shipment for Adult; International Ground $7.60, $7.60 and
 *   $10 per package.
 * - Saturday Delivery: FedEx International Priority, $16 per shipment.
 *
 * USPS: Notice 123 (Price List), "International Insurance", in the copy captured on 2026-09-28 that
 * ../prices/usps-2026.ts reads (github.com/Lxr-max/WebHarbor sites/usps/source_data/pricing.json, commit 16df088,
 * `international_extra_services`): up to $200.00 no fee, then $13.85 to $300, $17.55 to $400, $21.25 to $500, $24.90
 * to $600, $28.55 to $700, $32.30 to $800, $35.95 to $900. The copy gives one table and stops at $900: test mode
 * prices it for Priority Mail International and Priority Mail Express International, and does not insure more than
 * $900 rather than guess. First-Class Package International Service takes no insurance (the international-labels
 * spec's insurance codes 930 and 931 go with the two Priority classes), so it is refused.
 *
 * UPS: test mode prices nothing abroad (./quote.ts), so nothing here.
 */

export type AbroadCharge = { ok: true; cents: number } | { ok: false; detail: string };

const perHundred = (cents: number) => Math.ceil(cents / 10_000);

/** USPS's international insurance bands: the top of each band and its fee, in cents. */
const uspsBands: readonly [upToCents: number, feeCents: number][] = [
  [20_000, 0],
  [30_000, 1385],
  [40_000, 1755],
  [50_000, 2125],
  [60_000, 2490],
  [70_000, 2855],
  [80_000, 3230],
  [90_000, 3595],
];
const uspsInsured = new Set(['PRIORITY_MAIL_INTERNATIONAL', 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL']);

/** What one box declared or insured at `valueCents` costs abroad on the service, weighing `weightLb`. */
export function insuranceAbroad(carrier: CarrierId, service: { code: string; name: string }, valueCents: number, weightLb: number): AbroadCharge {
  if (carrier === 'fedex') {
    if (service.code === 'FEDEX_GROUND') return { ok: true, cents: valueCents <= 10_000 ? 0 : valueCents <= 30_000 ? 495 : perHundred(valueCents) * 165 };
    const carried = Math.max(10_000, Math.ceil(weightLb * 907));
    return { ok: true, cents: valueCents <= carried ? 0 : perHundred(valueCents - carried) * 165 };
  }
  if (carrier === 'usps') {
    if (!uspsInsured.has(service.code)) return { ok: false, detail: `USPS ${service.name} takes no insurance; choose Priority Mail International or Priority Mail Express International` };
    const band = uspsBands.find(([upTo]) => valueCents <= upTo);
    if (band) return { ok: true, cents: band[1] };
    return { ok: false, detail: `USPS's price for insuring more than $900 abroad is not in the Notice 123 copy test mode prices from; this box asks ${dollars(valueCents)}: insure it for at most $900 in test mode` };
  }
  return { ok: false, detail: 'UPS test mode prices nothing abroad' };
}

/** FedEx's signature charges abroad, in cents: per shipment for its express services, per package for International Ground. */
const fedexSignature: Partial<Record<OptionAsk, number>> = { 'signature:standard': 760, 'signature:indirect': 760, 'signature:adult': 1000 };

/**
 * What the options asked cost abroad on the service for `boxes` boxes, by ask, or the first ask without a published
 * price. The service does every ask (carriers/options.ts filtered it before).
 */
export function optionsAbroad(carrier: CarrierId, service: string, asks: readonly OptionAsk[], boxes: number): { ok: true; charges: { ask: OptionAsk; cents: number }[] } | { ok: false; ask: OptionAsk } {
  const charges: { ask: OptionAsk; cents: number }[] = [];
  for (const ask of asks) {
    let cents: number | undefined;
    if (carrier === 'fedex' && fedexSignature[ask] !== undefined) cents = fedexSignature[ask]! * (service === 'FEDEX_GROUND' ? boxes : 1);
    else if (carrier === 'fedex' && ask === 'saturday_delivery' && service === 'FEDEX_INTERNATIONAL_PRIORITY') cents = 1600;
    if (cents === undefined) return { ok: false, ask };
    charges.push({ ask, cents });
  }
  return { ok: true, charges };
}
