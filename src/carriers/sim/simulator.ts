import { createHash } from 'node:crypto';
import {
  failure,
  isDomestic,
  lengthAndGirthIn,
  ok,
  type Carrier,
  type CarrierResult,
  type LabelRef,
  type PickupRequest,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackingResult,
  type VoidOutcome,
} from '../carrier.ts';
import type { Clock } from '../../kernel/clock.ts';
import { syntheticTrackingNumber } from '../tracking-numbers.ts';
import { magicTracking } from './magic-tracking.ts';
import { pickupConfirmation } from './pickups.ts';
import { simulatedTracking } from './tracking-timeline.ts';
import { carrierCatalog, type ServiceInfo } from '../catalog.ts';
import { priceAbroad } from './international/quote.ts';
import { upsPuertoRicoRefusal } from '../ups/puerto-rico.ts';
import { refusalAbroad } from '../carrier-limits.ts';
import type { IntlRequest } from './international/types.ts';
import { billableWeightLb } from './billable-weight.ts';
import { itemizedPriceFor, type ItemizedPrice } from './pricing.ts';
import type { CarrierId } from '../../config.ts';
import { askName, askSurchargeType, optionAsks, type OptionAsk } from '../options.ts';
import { optionPriceCents } from './prices/option-prices.ts';
import type { SimCarrierTable } from './tables.ts';
import { estimatedDeliveryDate, transitDays } from './transit.ts';
import { zoneFor } from './zones.ts';
import { includedSurcharges, type Surcharge } from '../surcharges.ts';
import { insuranceCharge } from '../insurance.ts';

/** Waits until the caller gives up: how a carrier that never answers looks from here. */
function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

const maxRemembered = 10_000;

/** Everything a simulated quote depends on, the ship day included; nothing else. */
function quoteKey(r: RateRequest): string {
  const d = r.parcel.dimensionsIn;
  const residential = r.to.residential ?? !r.to.company;
  const flat = r.carrierBox?.flatRate;
  return [
    r.from.zip.slice(0, 5),
    r.to.country ?? 'US',
    (r.to.zip ?? '').slice(0, 5),
    r.parcel.weightLb,
    d ? `${d.length}x${d.width}x${d.height}` : '',
    residential ? 1 : 0,
    r.services?.join(',') ?? '',
    flat ? `${flat.service}:${flat.listCents}:${flat.accountCents}` : '',
    Math.floor(r.shipDate.getTime() / 86_400_000),
    optionAsks(r.options).join(','),
    r.parcel.insuredCents ?? '',
  ].join('|');
}

/**
 * A domestic price with the options' published charges added, per package (sim/prices/option-prices.ts), or the
 * first option test mode has no price for. Requesting additional handling adds the packaging charge only above a
 * size or weight charge the package already draws, and nothing beside an oversize charge: carriers charge one of
 * them per package.
 */
function priceOptions(carrier: CarrierId, service: string, asks: readonly OptionAsk[], zone: string, price: ItemizedPrice): { ok: true; price: ItemizedPrice } | { ok: false; ask: OptionAsk } {
  if (asks.length === 0) return { ok: true, price };
  const items: Surcharge[] = [...price.surcharges];
  let added = 0;
  for (const ask of asks) {
    const cents = optionPriceCents(carrier, service, ask, zone);
    if (cents === undefined) return { ok: false, ask };
    const handled = ask === 'additional_handling' ? handlingAlreadyCharged(price.surcharges) : 0;
    const charge = Math.max(0, cents - handled);
    added += charge;
    items.push({ type: askSurchargeType[ask], amountCents: charge });
  }
  const amountCents = price.amountCents + added;
  return { ok: true, price: { amountCents, listAmountCents: price.listAmountCents + added, surcharges: includedSurcharges(amountCents, items) } };
}

/** A size or weight charge the package draws already; an oversize package counts as handled at any price. */
function handlingAlreadyCharged(surcharges: readonly Surcharge[]): number {
  if (surcharges.some((x) => x.type === 'oversize')) return Infinity;
  return surcharges.find((x) => x.type === 'additional_handling')?.amountCents ?? 0;
}

/** The price with the carrier's charge for the declared value in it, at list and to the account alike (nothing discounts it). */
function withInsurance(price: ItemizedPrice, cents: number): ItemizedPrice {
  const amountCents = price.amountCents + cents;
  return { amountCents, listAmountCents: price.listAmountCents + cents, surcharges: includedSurcharges(amountCents, [...price.surcharges, { type: 'insurance', amountCents: cents }]) };
}

/** A request abroad as the international price lists take it. */
function intlRequest(request: Pick<RateRequest, 'to' | 'parcel'>, services: readonly string[] | undefined): IntlRequest {
  const { to } = request;
  return {
    to: { country: (to.country ?? 'US').toUpperCase(), ...(to.zip && { postalCode: to.zip }), residential: to.residential ?? !to.company },
    parcel: request.parcel,
    ...(services && { services }),
  };
}

const magicName = (a: { name?: string } | undefined) => (a?.name ?? '').trim().toLowerCase();

/** How a simulator runs, from the settings. */
export interface SimOptions {
  /** Carrier seconds of tracking per real second (SHIPD_SIM_TRACKING_SPEED). */
  trackingSpeed: number;
  /** The soonest the first scan comes after purchase (SHIPD_SIM_FIRST_SCAN_MINUTES); a minute when not given. */
  firstScanAfterMs?: number;
  /** SHIPD_SIM_UPS_DISCOUNT / SHIPD_SIM_FEDEX_DISCOUNT, in place of the price table's default discount. */
  accountDiscount?: number;
}

/**
 * An offline carrier for test mode: deterministic quotes for the same request and ship date, labels whose
 * tracking numbers follow the carrier's real format, and tracking that moves with the clock. Magic recipient
 * names make it fail on purpose, for testing the unhappy paths (docs/test-and-live-mode.md).
 */
export class SimulatedCarrier implements Carrier {
  readonly id: Carrier['id'];
  readonly name: string;
  readonly services: readonly ServiceInfo[];
  readonly usable = true;
  /** The simulators derive the label from the key, as USPS's API does. */
  idempotentPurchase(): boolean {
    return true;
  }
  /** Answers already worked out; a shop asks the same few questions all day. */
  private readonly quotes = new Map<string, CarrierResult<Quote[]>>();

  constructor(
    private readonly table: SimCarrierTable,
    private readonly clock: Clock,
    private readonly options: SimOptions,
  ) {
    this.id = table.id;
    this.name = table.name;
    // The domestic services of the table, then the catalog's international ones, priced by ./international.
    const international = carrierCatalog.find((c) => c.id === table.id)!.services.filter((s) => !s.domestic);
    this.services = [...table.services.map((s) => ({ code: s.code, name: s.name, domestic: true })), ...international];
  }

  async rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const t = this.table;
    const magic = magicName(request.to);
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}`) return failure('carrier_unavailable', `${t.name} is not answering (simulated by the recipient name)`);

    // Before the remembered quotes, whose key leaves out the declaration and the phone this rule reads.
    const territory = upsPuertoRicoRefusal(t.id, request);
    if (territory) return territory;
    // Likewise the carrier's terms and limits abroad, which read the declaration and the streets.
    const refused = isDomestic(request) ? null : refusalAbroad(t, request);
    if (refused) return refused;
    const key = quoteKey(request);
    const known = this.quotes.get(key);
    if (known) return known;
    const answer = this.quote(request);
    if (this.quotes.size >= maxRemembered) this.quotes.clear();
    this.quotes.set(key, answer);
    return answer;
  }

  private quote(request: RateRequest): CarrierResult<Quote[]> {
    const t = this.table;
    const insured = request.parcel.insuredCents;
    if (!isDomestic(request)) {
      // The declared-value figures read (insurance.ts) are each carrier's U.S. ones.
      if (insured !== undefined) return failure('service_unavailable', `${t.name} test mode prices declared value and insurance within the US only`);
      return this.quoteAbroad(request);
    }
    const reach = zoneFor(t.id, request.from.zip, request.to.zip);
    if (!reach) {
      return failure('not_serviced', `${t.name} does not serve ZIP ${[request.from.zip, request.to.zip].join(' → ')}: no such ZIP`);
    }
    const { parcel } = request;
    if (parcel.weightLb > t.maxWeightLb) return failure('parcel_too_large', `${t.name} takes parcels of at most ${t.maxWeightLb} lb`);
    const size = parcel.dimensionsIn ? lengthAndGirthIn(parcel.dimensionsIn) : undefined;
    if (size && size.longest > t.maxLengthIn) return failure('parcel_too_large', `${t.name} takes parcels at most ${t.maxLengthIn} in long`);
    if (size && size.lengthPlusGirth > t.maxLengthPlusGirthIn) {
      return failure('parcel_too_large', `${t.name} takes at most ${t.maxLengthPlusGirthIn} in of length plus girth; this parcel has ${Math.round(size.lengthPlusGirth)} in`);
    }

    const insurance = insured === undefined ? undefined : insuranceCharge(t, insured);
    if (insurance && !insurance.ok) return failure(insurance.code, insurance.detail);
    const residential = request.to.residential ?? !request.to.company;
    const flat = request.carrierBox?.flatRate;
    const billable = billableWeightLb(flat ? { weightLb: parcel.weightLb } : parcel, t.dim);
    const quotes: Quote[] = [];
    /** Zones a published list has no table for, for the services asked. */
    const unpriced = new Set<string>();
    /** Options asked that have no published price for a service that does them. */
    const unpricedOptions = new Set<OptionAsk>();
    const asks = optionAsks(request.options);
    for (const s of t.services) {
      if (request.services && !request.services.includes(s.code)) continue;
      if (flat && s.code !== flat.service) continue;
      if (s.destination && s.destination !== (residential ? 'residential' : 'commercial')) continue;
      if (size && s.maxLengthPlusGirthIn && size.lengthPlusGirth > s.maxLengthPlusGirthIn) continue;
      // FedEx numbers Alaska and Hawaii apart for its Ground and its Express services.
      const zone = zoneFor(t.id, request.from.zip, request.to.zip, s.code) ?? reach;
      // A flat-rate box costs the same to every zone at every weight it holds.
      const transport = flat ? { amountCents: flat.accountCents, listAmountCents: flat.listCents, surcharges: [] } : itemizedPriceFor(t, s, { parcel, billableLb: billable, zone, residential, toZip: request.to.zip }, this.options.accountDiscount ?? t.prices.accountDiscount);
      const price = transport && insurance ? withInsurance(transport, insurance.cents) : transport;
      if (!price) {
        if (!t.prices.services[s.code]?.[zone.label]) unpriced.add(zone.label);
        continue;
      }
      const withOptions = priceOptions(t.id, s.code, asks, zone.label, price);
      if (!withOptions.ok) {
        unpricedOptions.add(withOptions.ask);
        continue;
      }
      const days = transitDays(t.id, s.code, request.from.zip, request.to.zip, zone);
      quotes.push({
        carrier: t.id,
        service: s.code,
        serviceName: s.name,
        ...withOptions.price,
        currency: 'USD',
        billableWeightLb: billable,
        zone: zone.label,
        deliveryDays: days,
        estimatedDeliveryDate: estimatedDeliveryDate(t.id, s.code, request.shipDate, days),
        guaranteed: s.guaranteed,
      });
    }
    if (quotes.length === 0 && unpricedOptions.size > 0) {
      const names = [...unpricedOptions].map(askName).join(', ');
      return failure('option_not_supported', `${t.name} test mode has no published ${t.name} price for ${names} on the services that offer it, so does not quote it; live mode asks ${t.name} itself`);
    }
    if (quotes.length === 0 && unpriced.size > 0) {
      return failure('service_unavailable', `${t.name} test mode prices from the ${t.prices.source}, which has no table for zone ${[...unpriced].join(', ')} of the services asked`);
    }
    if (quotes.length === 0) return failure('service_unavailable', `No ${t.name} service fits this parcel and destination`);
    return ok(quotes);
  }

  /**
   * Abroad, from the carrier's published international prices. None of the lists read publishes transit times by
   * country, so a quote abroad has no delivery estimate rather than an invented one.
   */
  private quoteAbroad(request: RateRequest): CarrierResult<Quote[]> {
    const t = this.table;
    const priced = priceAbroad(t.id, intlRequest(request, request.services), this.options.accountDiscount);
    if (!priced.ok) return priced;
    return ok(
      priced.value.map((p) => ({
        carrier: t.id,
        service: p.service,
        serviceName: p.serviceName,
        amountCents: p.amountCents,
        listAmountCents: p.listAmountCents,
        currency: 'USD',
        billableWeightLb: p.billableWeightLb,
        zone: p.zone,
        deliveryDays: null,
        estimatedDeliveryDate: null,
        guaranteed: false,
        surcharges: includedSurcharges(p.amountCents, p.surcharges),
      })),
    );
  }

  async purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const t = this.table;
    const magic = magicName(request.to);
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}` || magic === `purchase fails ${t.id}`) {
      return failure('carrier_unavailable', `${t.name} did not sell the label (simulated by the recipient name)`);
    }
    const service = this.services.find((s) => s.code === request.service);
    if (!service) return failure('service_unavailable', `${t.name} has no service ${request.service}`);
    if (isDomestic(request)) {
      const territory = upsPuertoRicoRefusal(t.id, request);
      if (territory) return territory;
      if (!zoneFor(t.id, request.from.zip, request.to.zip)) return failure('not_serviced', `${t.name} does not serve ZIP ${request.to.zip}`);
    } else {
      const refusal = refusalAbroad(t, request);
      if (refusal) return refusal;
      const priced = priceAbroad(t.id, intlRequest(request, [request.service]), this.options.accountDiscount);
      if (!priced.ok) return priced;
    }
    // The idempotency key decides the tracking number, so buying again with it gives the same label back.
    const seed = createHash('sha256').update(`${t.id}:${request.idempotencyKey}`).digest();
    const trackingNumber = syntheticTrackingNumber(t.id, request.service, seed);
    return ok({ trackingNumber, carrierShipmentId: trackingNumber, postageCents: request.quotedCents, currency: 'USD' });
  }

  async void(label: LabelRef): Promise<CarrierResult<VoidOutcome>> {
    const seen = simulatedTracking(label, this.clock.now(), this.options.trackingSpeed, this.options.firstScanAfterMs);
    if (seen.status !== 'pre_transit') {
      return failure('label_in_transit', `${this.table.name} has scanned ${label.trackingNumber} (${seen.statusDetail.toLowerCase()}); a label in the carrier's hands cannot be voided`);
    }
    return ok('refunded');
  }

  async track(label: LabelRef): Promise<CarrierResult<TrackingResult>> {
    const now = this.clock.now();
    return ok(magicTracking(label.trackingNumber, now) ?? simulatedTracking(label, now, this.options.trackingSpeed, this.options.firstScanAfterMs));
  }

  /** Dates and windows are the caller's to check; the pickup address's name fails it on purpose, as for labels. */
  async schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<{ confirmationNumber: string }>> {
    const t = this.table;
    const magic = magicName(request.address);
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}`) return failure('carrier_unavailable', `${t.name} did not schedule the pickup (simulated by the address name)`);
    return ok({ confirmationNumber: pickupConfirmation(t.id, request.reference) });
  }

  async cancelPickup(): Promise<CarrierResult<void>> {
    return ok(undefined);
  }
}
