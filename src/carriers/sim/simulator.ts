import { createHash } from 'node:crypto';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import {
  failure,
  isDomestic,
  lengthAndGirthIn,
  ok,
  type Carrier,
  type CarrierResult,
  boxKey,
  isResidential,
  type BoxRef,
  type LabelRef,
  type ParcelSpec,
  type PickupAvailability,
  type PickupRequest,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackedNumbers,
  type TrackedParcel,
  type TrackingResult,
  type VoidOutcome,
  type DeliveredParcel,
  type ProofOfDelivery,
  type FoundLocation,
  type LocationQuery,
} from '../carrier.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { Address } from '../../schemas/address.ts';
import { syntheticTrackingNumber } from '../tracking-numbers.ts';
import { magicTracking } from './magic-tracking.ts';
import { externalParcel } from './external-tracking.ts';
import { fedexTrackingBatchLimit } from '../fedex/track.ts';
import { uspsTrackingBatchLimit } from '../usps/track.ts';
import { pickupConfirmation, simPickupAvailability } from './pickups.ts';
import { simulatedTracking } from './tracking-timeline.ts';
import { carrierCatalog, type ServiceInfo } from '../catalog.ts';
import { priceAbroad } from './international/quote.ts';
import { upsPuertoRicoRefusal } from '../ups/puerto-rico.ts';
import { fedexWholeShipmentVoids } from '../fedex/cancel.ts';
import { refusalAbroad } from '../carrier-limits.ts';
import type { IntlPrice, IntlRequest } from './international/types.ts';
import { insuranceAbroad, optionsAbroad } from './international/extras.ts';
import { boxDeclarations } from '../abroad.ts';
import { billableWeightLb } from './billable-weight.ts';
import { itemizedPriceFor, shipmentPrice, type ItemizedPrice } from './pricing.ts';
import type { CarrierId } from '../../config.ts';
import { askName, askSurchargeType, holdLocation, optionAsks, type OptionAsk } from '../options.ts';
import { optionPriceCents } from './prices/option-prices.ts';
import type { SimCarrierTable } from './tables.ts';
import { estimatedDeliveryDate, transitDays } from './transit.ts';
import { zoneFor } from './zones.ts';
import { simLocation, simLocations } from './locations.ts';
import { includedSurcharges, type Surcharge } from '../surcharges.ts';
import { insuranceCharge } from '../insurance.ts';
import { buyBoxByBox } from '../box-by-box.ts';

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
  const residential = isResidential(r.to);
  const flat = r.carrierBox?.flatRate;
  const box = ({ weightLb, dimensionsIn: d, insuredCents }: ParcelSpec) => `${weightLb}/${d ? `${d.length}x${d.width}x${d.height}` : ''}/${insuredCents ?? ''}`;
  return [
    r.from.zip.slice(0, 5),
    r.to.country ?? 'US',
    (r.to.zip ?? '').slice(0, 5),
    r.parcels.map(box).join(';'),
    residential ? 1 : 0,
    r.services?.join(',') ?? '',
    flat ? `${flat.service}:${flat.listCents}:${flat.accountCents}` : '',
    Math.floor(r.shipDate.getTime() / 86_400_000),
    optionAsks(r.options).join(','),
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
  let listAdded = 0;
  for (const ask of asks) {
    const published = optionPriceCents(carrier, service, ask, zone);
    if (published === undefined) return { ok: false, ask };
    const handled = ask === 'additional_handling' ? handlingAlreadyCharged(price.surcharges) : 0;
    const charge = Math.max(0, published.cents - handled);
    added += charge;
    listAdded += Math.max(0, published.listCents - handled);
    items.push({ type: askSurchargeType[ask], amountCents: charge });
  }
  const amountCents = price.amountCents + added;
  return { ok: true, price: { amountCents, listAmountCents: price.listAmountCents + listAdded, surcharges: includedSurcharges(amountCents, items) } };
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
function intlRequest(request: Pick<RateRequest, 'to' | 'parcels'>, services: readonly string[] | undefined): IntlRequest {
  const { to } = request;
  return {
    to: { country: (to.country ?? 'US').toUpperCase(), ...(to.zip && { postalCode: to.zip }), residential: isResidential(to) },
    parcel: request.parcels[0]!,
    ...(services && { services }),
  };
}

/** What the carrier refuses of one box, whatever the service. */
function boxRefusal(t: SimCarrierTable, parcel: ParcelSpec, which: string): CarrierResult<never> | null {
  if (parcel.weightLb > t.maxWeightLb) return failure('parcel_too_large', `${t.name} takes parcels of at most ${t.maxWeightLb} lb${which === 'this parcel' ? '' : `; ${which} weighs ${parcel.weightLb} lb`}`);
  const size = parcel.dimensionsIn ? lengthAndGirthIn(parcel.dimensionsIn) : undefined;
  if (size && size.longest > t.maxLengthIn) return failure('parcel_too_large', `${t.name} takes parcels at most ${t.maxLengthIn} in long`);
  if (size && size.lengthPlusGirth > t.maxLengthPlusGirthIn) {
    return failure('parcel_too_large', `${t.name} takes at most ${t.maxLengthPlusGirthIn} in of length plus girth; ${which} has ${Math.round(size.lengthPlusGirth)} in`);
  }
  return null;
}

/** Numbers per tracking call, as each carrier's API takes them (UPS one per GET); a simulated pass is grouped the same way. */
const simTrackingBatchLimits: Record<CarrierId, number> = { ups: 1, usps: uspsTrackingBatchLimit, fedex: fedexTrackingBatchLimit };

const magicName = (a: { name?: string } | undefined) => (a?.name ?? '').trim().toLowerCase();

/** How a simulator runs, from the settings. */
export interface SimOptions {
  /** Carrier seconds of tracking per real second (SHIPD_SIM_TRACKING_SPEED). */
  trackingSpeed: number;
  /** The soonest the first scan comes after purchase (SHIPD_SIM_FIRST_SCAN_MINUTES); a minute when not given. */
  firstScanAfterMs?: number;
  /** How long selling each label takes (SHIPD_SIM_LABEL_MS): a real carrier's label call is not instant. */
  labelMs?: number;
  /** SHIPD_SIM_UPS_DISCOUNT / SHIPD_SIM_FEDEX_DISCOUNT, in place of the price table's default discount. */
  accountDiscount?: number;
}

/**
 * An offline carrier for test mode: deterministic quotes for the same request and ship date, labels whose
 * tracking numbers follow the carrier's real format, and tracking that moves with the clock. Magic recipient
 * names make it fail on purpose, for testing the unhappy paths (docs/test-mode.md).
 */
export class SimulatedCarrier implements Carrier {
  readonly id: Carrier['id'];
  readonly name: string;
  readonly services: readonly ServiceInfo[];
  readonly usable = true;
  readonly voidBox?: Carrier['voidBox'];
  readonly wholeShipmentVoids?: string;
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
    // One box of several is voided as the carrier's own API allows, so an integration built in test mode holds live.
    if (table.id === 'fedex') this.wholeShipmentVoids = fedexWholeShipmentVoids;
    else this.voidBox = async (label, box) => this.scanned(label, box) ?? ok('refunded');
  }

  async rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const t = this.table;
    const magic = magicName(request.to);
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}`) return failure('carrier_unavailable', `${t.name} is not answering (simulated by the recipient name)`);

    const unknownPlace = this.unknownHoldLocation(request);
    if (unknownPlace) return unknownPlace;
    // Before the remembered quotes, whose key leaves out the declaration and the phone this rule reads.
    const territory = upsPuertoRicoRefusal(t.id, request);
    if (territory) return territory;
    // Likewise the carrier's terms and limits abroad, which read the declaration and the streets.
    const refused = isDomestic(request) ? null : this.refusalAbroad(request);
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
    const insuredBoxes = request.parcels.map((p) => p.insuredCents);
    if (!isDomestic(request)) return this.quoteAbroad(request);
    const reach = zoneFor(t.id, request.from.zip, request.to.zip);
    if (!reach) {
      return failure('not_serviced', `${t.name} does not serve ZIP ${[request.from.zip, request.to.zip].join(' → ')}: no such ZIP`);
    }
    for (const [i, parcel] of request.parcels.entries()) {
      const refused = boxRefusal(t, parcel, request.parcels.length > 1 ? `box ${i + 1}` : 'this parcel');
      if (refused) return refused;
    }
    const sizes = request.parcels.map((p) => (p.dimensionsIn ? lengthAndGirthIn(p.dimensionsIn) : undefined));

    const insurances = insuredBoxes.map((cents) => (cents === undefined ? undefined : insuranceCharge(t, cents)));
    const uninsurable = insurances.findIndex((charge) => charge && !charge.ok);
    const refusal = insurances[uninsurable];
    if (refusal && !refusal.ok) return failure(refusal.code, request.parcels.length > 1 ? `box ${uninsurable + 1}: ${refusal.detail}` : refusal.detail);
    const residential = isResidential(request.to);
    const flat = request.carrierBox?.flatRate;
    // Each box is billed at its own billable weight; the quote shows the boxes' sum.
    const billables = request.parcels.map((parcel) => billableWeightLb(flat ? { weightLb: parcel.weightLb } : parcel, t.dim));
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
      if (sizes.some((size) => size && s.maxLengthPlusGirthIn && size.lengthPlusGirth > s.maxLengthPlusGirthIn)) continue;
      // FedEx numbers Alaska and Hawaii apart for its Ground and its Express services.
      const zone = zoneFor(t.id, request.from.zip, request.to.zip, s.code) ?? reach;
      // A flat-rate box costs the same to every zone at every weight it holds.
      // Each box is priced on its own, with its own declared value and the options' per-package charges; the quote
      // is the boxes' sum.
      let optionUnpriced: OptionAsk | undefined;
      const boxes = request.parcels.map((parcel, i) => {
        const transport = flat
          ? { amountCents: flat.accountCents, listAmountCents: flat.listCents, surcharges: [] }
          : itemizedPriceFor(t, s, { parcel, billableLb: billables[i]!, zone, residential, toZip: request.to.zip }, this.options.accountDiscount ?? t.prices.accountDiscount);
        if (!transport) return undefined;
        const insured = insurances[i];
        const withOptions = priceOptions(t.id, s.code, asks, zone.label, insured?.ok ? withInsurance(transport, insured.cents) : transport);
        if (withOptions.ok) return withOptions.price;
        optionUnpriced = withOptions.ask;
        return undefined;
      });
      if (optionUnpriced) {
        unpricedOptions.add(optionUnpriced);
        continue;
      }
      const price = shipmentPrice(boxes);
      if (!price) {
        if (!t.prices.services[s.code]?.[zone.label]) unpriced.add(zone.label);
        continue;
      }
      const days = transitDays(t.id, s.code, request.from.zip, request.to.zip, zone);
      quotes.push({
        carrier: t.id,
        service: s.code,
        serviceName: s.name,
        ...price,
        currency: 'USD',
        billableWeightLb: billables.reduce((sum, lb) => sum + lb, 0),
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
    if (quotes.length === 0) return failure('service_unavailable', `No ${t.name} service fits ${request.parcels.length > 1 ? 'these boxes' : 'this parcel'} and destination`);
    return ok(quotes);
  }

  /**
   * The carrier's terms and limits abroad, and USPS's customs form per box: a declaration of several boxes USPS cannot
   * split by box is refused (abroad.ts boxDeclarations).
   */
  private refusalAbroad(request: RateRequest | PurchaseRequest): CarrierResult<never> | null {
    const refused = refusalAbroad(this.table, request);
    if (refused || this.table.id !== 'usps' || !request.customs) return refused;
    const split = boxDeclarations(request.customs, request.parcels.length, this.table.name);
    return split.ok ? null : split;
  }

  /**
   * Abroad, from the carrier's published international prices: each box priced on its own and the quote their sum,
   * with the declared value or insurance of each box and the options asked (./international/extras.ts). None of the
   * lists read publishes transit times by country, so a quote abroad has no delivery estimate rather than an invented
   * one. USPS sells a label per box abroad, each with its own customs form: a declaration it cannot split by box is
   * refused first.
   */
  private quoteAbroad(request: RateRequest): CarrierResult<Quote[]> {
    const t = this.table;
    const n = request.parcels.length;
    const perBox: IntlPrice[][] = [];
    for (const [i, parcel] of request.parcels.entries()) {
      const priced = priceAbroad(t.id, intlRequest({ to: request.to, parcels: [parcel] }, request.services), this.options.accountDiscount);
      if (!priced.ok) return n === 1 ? priced : failure(priced.error.code, `box ${i + 1} of ${n}: ${priced.error.detail}`);
      perBox.push(priced.value);
    }
    const asks = optionAsks(request.options);
    const refusals: string[] = [];
    let unpricedOption: OptionAsk | undefined;
    const quotes: Quote[] = [];
    for (const first of perBox[0]!) {
      const boxes = perBox.map((prices) => prices.find((p) => p.service === first.service));
      if (boxes.some((b) => b === undefined)) continue;
      const service = { code: first.service, name: first.serviceName };
      const items: Surcharge[] = boxes.flatMap((b) => b!.surcharges.map((x) => ({ type: x.type, amountCents: x.amountCents })));
      let amountCents = boxes.reduce((sum, b) => sum + b!.amountCents, 0);
      let listAmountCents = boxes.reduce((sum, b) => sum + b!.listAmountCents, 0);
      let refused: string | undefined;
      for (const [i, parcel] of request.parcels.entries()) {
        if (parcel.insuredCents === undefined) continue;
        const charge = insuranceAbroad(t.id, service, parcel.insuredCents, parcel.weightLb);
        if (!charge.ok) {
          refused = n === 1 ? charge.detail : `box ${i + 1}: ${charge.detail}`;
          break;
        }
        amountCents += charge.cents;
        listAmountCents += charge.cents;
        items.push({ type: 'insurance', amountCents: charge.cents });
      }
      if (refused) {
        refusals.push(refused);
        continue;
      }
      const options = optionsAbroad(t.id, first.service, asks, n);
      if (!options.ok) {
        unpricedOption = options.ask;
        continue;
      }
      for (const { ask, cents } of options.charges) {
        amountCents += cents;
        listAmountCents += cents;
        items.push({ type: askSurchargeType[ask], amountCents: cents });
      }
      quotes.push({
        carrier: t.id,
        service: first.service,
        serviceName: first.serviceName,
        amountCents,
        listAmountCents,
        currency: 'USD',
        billableWeightLb: boxes.reduce((sum, b) => sum + b!.billableWeightLb, 0),
        zone: first.zone,
        deliveryDays: null,
        estimatedDeliveryDate: null,
        guaranteed: false,
        surcharges: includedSurcharges(amountCents, items),
      });
    }
    if (quotes.length > 0) return ok(quotes);
    if (unpricedOption) {
      return failure('option_not_supported', `${t.name} test mode has no published ${t.name} price for ${askName(unpricedOption)} abroad on the services that offer it, so does not quote it; live mode asks ${t.name} itself`);
    }
    if (refusals.length > 0) return failure('service_unavailable', [...new Set(refusals)].join('; '));
    return failure('service_unavailable', `No ${t.name} service abroad takes every one of these ${n} boxes`);
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
    const unknownPlace = this.unknownHoldLocation(request);
    if (unknownPlace) return unknownPlace;
    if (isDomestic(request)) {
      const territory = upsPuertoRicoRefusal(t.id, request);
      if (territory) return territory;
      if (!zoneFor(t.id, request.from.zip, request.to.zip)) return failure('not_serviced', `${t.name} does not serve ZIP ${request.to.zip}`);
    } else {
      const refusal = this.refusalAbroad(request);
      if (refusal) return refusal;
      const priced = this.quoteAbroad({ ...request, services: [request.service] });
      if (!priced.ok) return priced;
    }
    if (request.parcels.length === 1) {
      await this.selling(signal);
      const trackingNumber = this.trackingNumber(request.service, request.idempotencyKey);
      return ok({ trackingNumber, carrierShipmentId: trackingNumber, postageCents: request.quotedCents, currency: 'USD' });
    }
    // USPS has no multi-piece shipments: each box is a label of its own, sold one call at a time.
    if (t.id === 'usps') return this.purchaseBoxByBox(request, signal);
    // UPS and FedEx file the boxes under one shipment, numbered by its first box: UPS's shipment identification
    // number is its first package's 1Z, FedEx's master tracking number its first piece's.
    await this.selling(signal);
    const packages = request.parcels.map((_, i) => ({ trackingNumber: this.trackingNumber(request.service, boxKey(request.idempotencyKey, i)) }));
    const master = packages[0]!.trackingNumber;
    return ok({ trackingNumber: master, carrierShipmentId: master, masterTrackingNumber: master, packages, postageCents: request.quotedCents, currency: 'USD' });
  }

  /** A parcel to hold at a location the simulator does not list: refused as the carrier refuses an unknown id. */
  private unknownHoldLocation(request: Pick<RateRequest, 'options'>): CarrierResult<never> | null {
    const at = holdLocation(request.options);
    if (!at || at.carrier !== this.id || simLocation(this.id, at.id)) return null;
    return failure('option_not_supported', `${this.name} has no location ${at.id} to hold the parcel at (hold_location): test keys hold parcels at the locations GET /carrier-locations lists for them`);
  }

  /** Five locations in every ZIP Code that exists (./locations.ts); a ZIP Code that does not is refused as a carrier would. */
  async findLocations(query: LocationQuery): Promise<CarrierResult<FoundLocation[]>> {
    const found = simLocations(this.id, query.zip, query.limit);
    return found ? ok(found) : failure('address_invalid', `ZIP Code ${query.zip} does not exist`);
  }

  /** The time one label call takes; a purchase the time-out gives up on is cut off as a real one would be. */
  private async selling(signal: AbortSignal): Promise<void> {
    const ms = this.options.labelMs ?? 0;
    if (ms > 0) await sleep(ms, undefined, { signal });
  }

  /** The idempotency key decides the tracking number, so buying again with it gives the same label back. */
  private trackingNumber(service: string, key: string): string {
    return syntheticTrackingNumber(this.table.id, service, createHash('sha256').update(`${this.table.id}:${key}`).digest());
  }

  private purchaseBoxByBox(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const t = this.table;
    const refusedBox = Number(/^box (\d+) fails /.exec(magicName(request.to))?.[1] ?? 0);
    return buyBoxByBox(
      request,
      async (box, index) => {
        await this.selling(signal);
        if (index + 1 === refusedBox) return failure('carrier_unavailable', `${t.name} did not sell box ${index + 1}'s label (simulated by the recipient name)`);
        const trackingNumber = this.trackingNumber(request.service, box.idempotencyKey);
        return ok({ trackingNumber, carrierShipmentId: trackingNumber, postageCents: box.quotedCents, currency: 'USD' });
      },
      (label) => this.void(label),
      signal,
    );
  }

  /** All the boxes or none: one box scanned keeps the whole shipment. */
  async void(label: LabelRef): Promise<CarrierResult<VoidOutcome>> {
    for (const box of label.boxes ?? [label]) {
      const scanned = this.scanned(label, box);
      if (scanned) return scanned;
    }
    return ok('refunded');
  }


  /** The refusal of a box the carrier has scanned already; null while it is still only a label. */
  private scanned(label: LabelRef, box: Pick<BoxRef, 'trackingNumber'>): CarrierResult<never> | null {
    const seen = simulatedTracking({ ...label, trackingNumber: box.trackingNumber }, this.clock.now(), this.options.trackingSpeed, this.options.firstScanAfterMs);
    if (seen.status === 'pre_transit') return null;
    return failure('label_in_transit', `${this.table.name} has scanned ${box.trackingNumber} (${seen.statusDetail.toLowerCase()}); a label in the carrier's hands cannot be voided`);
  }

  async track(label: LabelRef): Promise<CarrierResult<TrackingResult>> {
    const now = this.clock.now();
    // A magic number's picture is taken as of when it was first followed, so every later check tells the same scans
    // at the same times, as a real carrier does; trackers merge scans by their time (trackers.ts scanKey).
    return ok(magicTracking(label.trackingNumber, label.purchasedAt <= now ? label.purchasedAt : now) ?? simulatedTracking(label, now, this.options.trackingSpeed, this.options.firstScanAfterMs));
  }

  /** As many numbers a call as the carrier's own API takes, so a test-mode pass groups them as a live one does. */
  get trackingBatchLimit(): number {
    return simTrackingBatchLimits[this.table.id];
  }

  /** Numbers bought elsewhere: each one's journey decided by the number, begun when it was first followed. */
  async trackNumbers(parcels: TrackedParcel[]): Promise<CarrierResult<TrackedNumbers>> {
    const answers: TrackedNumbers = new Map();
    for (const p of parcels) {
      answers.set(p.trackingNumber, await this.track(externalParcel(p.trackingNumber, p.followedSince)));
      // A live batch is waited for on the network; drawn here, 30 journeys would hold the event loop for milliseconds
      // on end, so requests get their turn between numbers.
      await setImmediate();
    }
    return ok(answers);
  }

  /**
   * A delivered parcel's signed proof, as the carriers' tracking APIs give one: a sample letter drawn from the
   * delivery shipd recorded. Every simulated delivery is signed for, so each has one; a parcel not delivered, none.
   */
  async proofOfDelivery(parcel: DeliveredParcel): Promise<CarrierResult<ProofOfDelivery[]>> {
    if (parcel.signedBy === null) return ok([]);
    const l = parcel.place;
    const place = l ? `${[l.city, l.state].filter((p) => p !== '').join(', ')} ${l.zip}`.trim() || null : null;
    // PDFKit and its fonts are loaded by the first proof a process draws, not by every process that starts.
    const { writeDeliveryProof } = await import('../../labels/delivery-proof.ts');
    const bytes = await writeDeliveryProof({ carrierName: this.table.name, trackingNumber: parcel.trackingNumber, signedBy: parcel.signedBy, deliveredAt: parcel.deliveredAt, place, createdAt: this.clock.now() });
    return ok([{ type: 'signature', content: bytes.toString('base64'), contentType: 'application/pdf' }]);
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

  /** By the rules test-mode pickups are checked against (simPickupAvailability); the address's name fails it as for a booking. */
  async pickupAvailability(query: { address: Address; date: string }, signal: AbortSignal): Promise<CarrierResult<PickupAvailability>> {
    const t = this.table;
    const magic = magicName(query.address);
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}`) return failure('carrier_unavailable', `${t.name} did not answer the pickup availability request (simulated by the address name)`);
    return ok(simPickupAvailability(t.name, query.date));
  }
}
