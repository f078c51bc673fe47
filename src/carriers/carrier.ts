import type { CarrierId } from '../config.ts';
import type { Address, AnyAddress } from '../schemas/address.ts';
import type { Customs } from '../schemas/customs.ts';
import type { CustomsDocumentType } from '../labels/customs-data.ts';
import type { LabelFormat, LabelResolution, LabelSize } from '../labels/label-data.ts';
import type { ServiceInfo } from './catalog.ts';
import type { Surcharge } from './surcharges.ts';
import type { ShipmentOptions } from '../schemas/options.ts';

/** A parcel (one box) in carrier-neutral units: pounds and inches. */
export interface ParcelSpec {
  weightLb: number;
  dimensionsIn?: { length: number; width: number; height: number };
  /**
   * The value the box is declared or insured at with the carrier, in cents of US dollars (the shipment's `insurance`);
   * absent for none. The carrier's charge for it is an `insurance` surcharge of the quote.
   */
  insuredCents?: number;
  /** The client's own words for the box (Parcel.reference), printed on its label. */
  reference?: string;
}

/** The most boxes one shipment holds (DESIGN §14). */
export const maxBoxes = 20;

/**
 * How a carrier that ships one box per request answers several: refused with a typed failure naming the carrier,
 * rather than shipping only the first box.
 */
export function severalBoxesRefusal(carrierName: string, request: { parcels: readonly ParcelSpec[] }, why = 'shipd does not send it several boxes in one shipment yet'): CarrierResult<never> | null {
  if (request.parcels.length <= 1) return null;
  return failure('not_serviced', `${carrierName}: ${request.parcels.length} boxes in one shipment (several boxes) are refused: ${why}`);
}

/** Whether an address is a home, for carriers' residential rates and options: as the client said, else when it names no company. */
export const isResidential = (a: AnyAddress): boolean => a.residential ?? !a.company;

/** The longest side, and the longest side plus twice the other two (length plus girth), in inches. */
export function lengthAndGirthIn(d: NonNullable<ParcelSpec['dimensionsIn']>): { longest: number; lengthPlusGirth: number } {
  const [a, b, c] = [d.length, d.width, d.height].sort((x, y) => y - x) as [number, number, number];
  return { longest: a, lengthPlusGirth: a + 2 * (b + c) };
}

export interface RateRequest {
  /** Shipments leave from the US (its states, territories and military post offices). */
  from: Address;
  /** Any country; a US address always has its state and ZIP (isUsAddress tells the two apart). */
  to: AnyAddress;
  /** Every box of the shipment, 1 to maxBoxes: a quote prices them all together. */
  parcels: ParcelSpec[];
  /** The checked customs declaration, whenever the parcel crosses a customs border (customsBorder says when). */
  customs?: Customs;
  /**
   * What the order's line items are worth, when they state one currency: UPS wants a value for a shipment between
   * Puerto Rico and the rest of the US even where no customs declaration is asked (ups/puerto-rico.ts).
   */
  goodsValue?: { amount: string; currency: string };
  /** The day the parcel is handed over; delivery dates count from it. */
  shipDate: Date;
  /** Only these services of the carrier, when given. */
  services?: string[];
  /**
   * Delivery options, for the whole shipment. Only services that do every one are quoted (carriers/options.ts), each
   * with the options' charges in its price and surcharges.
   */
  options?: ShipmentOptions;
  /**
   * A return label's rate: the parcel comes back from the customer (`from`) to the merchant (`to`). Carriers price
   * and name returns apart (USPS's *_RETURN_SERVICE classes); quotes still name the outbound service code.
   */
  isReturn?: boolean;
  /** The carrier's own packaging, when every box is one of it (its id in GET /packages). */
  carrierBox?: { id: string; flatRate?: { service: string; listCents: number; accountCents: number } };
}

/** A request whose destination is in the US: what the live adapters' domestic request builders take. */
export type DomesticRateRequest = RateRequest & { to: Address };
export type DomesticPurchaseRequest = PurchaseRequest & { to: Address };

/** Whether the request's destination is in the US (country US, with the state and ZIP every US address has). */
export function isDomestic<R extends { to: AnyAddress }>(request: R): request is R & { to: Address } {
  const { to } = request;
  return (to.country ?? 'US').toUpperCase() === 'US' && to.state !== undefined && to.zip !== undefined;
}

/** How a live adapter without international requests yet answers one abroad. */
export function notShippedAbroad(carrierName: string, to: AnyAddress): CarrierResult<never> {
  return failure('not_serviced', `shipd does not send ${carrierName} international requests yet; ${(to.country ?? '').toUpperCase()} is abroad`);
}

export interface Quote {
  carrier: CarrierId;
  service: string;
  serviceName: string;
  /** What the caller pays, in cents. */
  amountCents: number;
  /** The carrier's published (retail) price, in cents. */
  listAmountCents: number;
  /** ISO 4217 code of both amounts, as the carrier stated it: a price is never relabelled. */
  currency: string;
  /**
   * What the caller pays in US dollars, in cents, where the carrier priced in another currency and stated the USD
   * figure too (FedEx's preferred-currency rates, or its exchange rate): shipd charges postage in USD, so only such
   * a quote can be bought.
   */
  usdAmountCents?: number;
  billableWeightLb: number;
  zone: string;
  /** Null where the carrier publishes no transit time for the route (test mode abroad): never guessed. */
  deliveryDays: number | null;
  /** YYYY-MM-DD; null with deliveryDays. */
  estimatedDeliveryDate: string | null;
  guaranteed: boolean;
  /** The surcharges amountCents includes, in its currency (surcharges.ts): never more than amountCents together. */
  surcharges: Surcharge[];
}

export type CarrierErrorCode =
  | 'carrier_unavailable'
  | 'label_in_transit'
  | 'already_voided'
  | 'carrier_timeout'
  | 'address_invalid'
  | 'service_unavailable'
  | 'parcel_too_large'
  | 'insurance_above_limit'
  | 'not_serviced'
  | 'credentials_missing'
  | 'option_not_supported'
  | 'manifest_rejected'
  | 'pickup_unavailable'
  | 'outside_pickup_window'
  | 'carrier_error';

export interface CarrierFailure {
  code: CarrierErrorCode;
  detail: string;
  /**
   * The carrier refused the credentials themselves (401/403, an OAuth refusal): a connection test then marks the
   * account failing, where an outage (also carrier_unavailable) says nothing of its credentials.
   */
  credentialsRefused?: true;
  /**
   * The boxes a void of several did void before failing for the others (a box UPS had picked up, a USPS cancel
   * refused halfway): void at the carrier whatever the failure says, so shipd records them and refunds their share.
   */
  voided?: VoidedBox[];
  /**
   * How long the carrier asked shipd to wait before calling again (a 429's or 503's Retry-After), where it said:
   * the trackers worker leaves the carrier alone at least this long.
   */
  retryAfterMs?: number;
}

/** One box of a label the carrier voided, by its tracking number. */
export interface VoidedBox {
  trackingNumber: string;
  outcome: VoidOutcome;
}

/** Carriers answer with a value or a typed failure; they never throw HTTP details at the caller. */
export type CarrierResult<T> = { ok: true; value: T } | { ok: false; error: CarrierFailure };

export interface AddressCheck<A extends AnyAddress = Address> {
  valid: boolean;
  address: A;
  residential: boolean | null;
  messages: { code: string; detail: string }[];
}

/** A label to buy: the service chosen from a quote, for the shipment it was quoted for. */
export interface PurchaseRequest {
  from: Address;
  /** Any country, as in RateRequest. */
  to: AnyAddress;
  /** Every box, as in RateRequest: one label each, bought together. */
  parcels: ParcelSpec[];
  /** The checked customs declaration, as in RateRequest. */
  customs?: Customs;
  /** As in RateRequest. */
  goodsValue?: { amount: string; currency: string };
  shipDate: Date;
  service: string;
  /** As in RateRequest: the options the quote was for, which this service does. */
  options?: ShipmentOptions;
  /** What the quote said, in cents; a carrier whose price moved since answers with its own. */
  quotedCents: number;
  labelFormat: LabelFormat;
  /** The paper, one the carrier prints in this format (label-options.ts); 4×6 when absent. */
  labelSize?: LabelSize;
  /** ZPL's dots per inch; 203 when absent. */
  labelResolution?: LabelResolution;
  isReturn: boolean;
  /** The order number: the stand-in for a missing invoice number, and UPS's shipment description. */
  reference?: string;
  /**
   * Printed on the label and sent in the carrier's reference fields: the client's, which fit the carrier, as
   * label-options.ts checks before it is asked. Absent, the order number (`reference`), clipped to the fields.
   */
  references?: string[];
  /**
   * The same key buys the same label: a purchase retried after a crash gets the first label back, never a
   * second one (USPS takes it as X-Idempotency-Key; the simulators derive the label from it). A carrier that sells
   * one box per call derives each box's key from it (boxKey).
   */
  idempotencyKey: string;
}

/** The label's references (PurchaseRequest.references), each cut to the carrier's field where the order number stands in. */
export function labelReferences(r: Pick<PurchaseRequest, 'reference' | 'references'>, maxLength: number): string[] {
  const refs = r.references ?? (r.reference?.trim() ? [r.reference.trim()] : []);
  return refs.map((ref) => ref.slice(0, maxLength).trim());
}

/**
 * A box's references: the shipment's and then the box's own, within the `max` a label or carrier field holds. The
 * box's own stays (it tells the boxes apart) and the shipment's first ones with it (the order or PO number leads).
 */
export function boxReferences(shipment: readonly string[], own: string | undefined, max: number): string[] {
  return own ? [...shipment.slice(0, max - 1), own] : shipment.slice(0, max);
}

/** The idempotency key of box `index` (0-based) of a purchase sold box by box: the same on every try. */
export const boxKey = (idempotencyKey: string, index: number): string => (index === 0 ? idempotencyKey : `${idempotencyKey}.box${index + 1}`);

/** One box of a purchase: its own tracking number and, where the carrier draws it, its own label. */
export interface BoughtBox {
  trackingNumber: string;
  /** The carrier's id to void the box by, where each box is its own shipment (USPS); else the shipment's. */
  carrierShipmentId?: string;
  /**
   * What the carrier billed for this box alone, in cents of the purchase's currency, where it sells boxes one by one
   * (USPS): a box voided alone gets this back. Absent where the carrier bills the boxes as one shipment.
   */
  postageCents?: number;
  file?: { format: LabelFormat; bytes: Buffer };
}

export interface PurchasedLabel {
  /** The first box's tracking number: for one box, the label's. */
  trackingNumber: string;
  /** The carrier's own id for the shipment, needed to void it. */
  carrierShipmentId: string;
  /**
   * Every box, in the order of the request's parcels, where several were bought; absent for one box, whose
   * tracking number and file are trackingNumber and file (boughtBoxes reads both the same way).
   */
  packages?: BoughtBox[];
  /** The number the carrier files several boxes under (UPS's shipment number, FedEx's master); absent where it has none (USPS). */
  masterTrackingNumber?: string;
  postageCents: number;
  /** ISO 4217 code of postageCents, as the carrier stated it. */
  currency: string;
  /** The (first box's) label file; absent when shipd renders the label itself (the simulators). */
  file?: { format: LabelFormat; bytes: Buffer };
  /**
   * Customs documents the carrier drew for the parcel, as PDFs: UPS's and FedEx's commercial invoice (with ETD, the
   * copy of what FedEx uploaded). USPS prints its customs form on the international label itself, so gives none.
   */
  documents?: { type: CustomsDocumentType; bytes: Buffer }[];
}

/** Every box of a bought label, the first (or only) one first. */
export function boughtBoxes(label: PurchasedLabel): BoughtBox[] {
  return label.packages ?? [{ trackingNumber: label.trackingNumber, carrierShipmentId: label.carrierShipmentId, ...(label.file && { file: label.file }) }];
}

/** One box of a label of several, as the carrier knows it. */
export interface BoxRef {
  trackingNumber: string;
  carrierShipmentId: string;
}

/** What a void or a tracking request needs to know of a label bought earlier. */
export interface LabelRef {
  trackingNumber: string;
  carrierShipmentId: string;
  /**
   * Every box's tracking number and void id, where the label has several. A void voids them all: it is given only the
   * boxes not voided one by one before (voidBox).
   */
  boxes?: BoxRef[];
  /** How many of the label's boxes were voided one by one before, where a void is given the rest only (`boxes`). */
  boxesVoidedBefore?: number;
  service: string;
  purchasedAt: Date;
  /** YYYY-MM-DD, as quoted. */
  estimatedDeliveryDate?: string;
  from?: Address;
  to?: AnyAddress;
  /** The carrier location the parcel is held at for its recipient (options.hold_location), where it is held. */
  heldAt?: { carrier: CarrierId; id: string };
}

/** `refunded`: the postage comes back now; `refund_pending`: the carrier refunds later (USPS after its review). */
export type VoidOutcome = 'refunded' | 'refund_pending';

export type TrackingStatus =
  | 'unknown'
  | 'pre_transit'
  | 'in_transit'
  | 'out_for_delivery'
  | 'delivered'
  | 'available_for_pickup'
  | 'return_to_sender'
  | 'failure'
  | 'cancelled'
  | 'error';

export interface TrackingEvent {
  occurredAt: Date;
  status: TrackingStatus;
  description: string;
  location: { city: string; state: string; zip: string; country: string } | null;
  /** The scan's local clock: its offset from UTC at that moment ("-05:00"), as the carrier wrote it or its place's zone gives it. */
  utcOffset?: string;
  /** The IANA zone of the scan's place, where it is known and agrees with the carrier's offset. */
  timeZone?: string;
}

/**
 * What the carrier hands over as proof of delivery in its tracking answer: an image of the signature, a document
 * (UPS's POD letter), or only word that one can be had from the carrier (FedEx's SPOD, fetched with another call).
 */
export interface ProofOfDelivery {
  type: 'signature' | 'document';
  /** The file's bytes, base64, where the answer carries them. */
  content?: string;
  /** Its media type, where known. */
  contentType?: string;
}

export interface TrackingResult {
  status: TrackingStatus;
  statusDetail: string;
  /** YYYY-MM-DD, when the carrier says. */
  estimatedDeliveryDate: string | null;
  /** Oldest first. */
  events: TrackingEvent[];
  /** When the tracking is next expected to change, where the carrier knows (the simulators do); else it is polled. */
  nextEventAt?: Date;
  /** Who signed for or received the parcel, where the carrier says. */
  signedBy?: string;
  /**
   * What the tracking answer says of proofs of delivery: files it carries, or word that the carrier holds one (no
   * content: FedEx's SPOD). An empty list is the carrier saying it has none; absent, the answer does not say (UPS
   * tells only when asked with returnPOD), and a delivered parcel's proofs are asked for with proofOfDelivery.
   */
  proofOfDelivery?: ProofOfDelivery[];
}

/** A delivered parcel whose proofs are asked for, as shipd recorded its delivery (the simulators draw theirs from it). */
export interface DeliveredParcel {
  trackingNumber: string;
  signedBy: string | null;
  deliveredAt: Date | null;
  place: TrackingEvent['location'];
}

/** A number shipd did not sell, as a tracking call of several asks about it. */
export interface TrackedParcel {
  trackingNumber: string;
  /** When it was first followed: the simulators start its journey then; the carriers' APIs do not need it. */
  followedSince: Date;
}

/**
 * Each number's own answer to a tracking call of several, by number: a number the carrier does not know yet is an
 * `unknown` result, as for a label, and a number refused on its own is its own failure, not the call's.
 */
export type TrackedNumbers = Map<string, CarrierResult<TrackingResult>>;
/** Where a carrier pushes tracking, and what it authenticates the pushes with (see config.ts carrierPush). */
export interface TrackingListener {
  url: string;
  /** UPS: the opaque credential sent back in each message; USPS: the 32-character HMAC secret. */
  secret: string;
  /** USPS: who is told of a suspended subscription. */
  adminEmail?: string;
}

export interface TrackingSubscriptions {
  subscribed: { trackingNumber: string; subscriptionId: string | null }[];
  refused: string[];
  /** When the subscriptions lapse unless made again, where the carrier says (UPS: 14 days). */
  expiresAt: Date | null;
}

/** A one-time pickup: the carrier comes to the address on the date, within the window (local times there). */
export interface PickupRequest {
  address: Address;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, local time at the address. */
  window: { start: string; end: string };
  /** The labels the driver is to collect. */
  trackingNumbers: string[];
  parcels: PickupParcels;
  /** The labels' service codes: FedEx sends its Express and Ground drivers apart, so its pickup names one of them. */
  services?: string[];
  instructions?: string;
  /** The same reference schedules the same pickup: a retry gets the first confirmation back, never a second driver. */
  reference: string;
}

/** What a cancellation needs to know of a pickup scheduled earlier. */
export interface PickupRef {
  confirmationNumber: string;
  /** YYYY-MM-DD: carriers file pickups by day (FedEx wants it to find one). */
  date: string;
  /** What the carrier's booking answer gave that its cancel needs again (FedEx: the Express location), as booked. */
  carrierData?: Record<string, string>;
}

/** A carrier's booking of a pickup. */
export interface BookedPickup {
  confirmationNumber: string;
  /** Kept with the pickup and handed back to cancel it (PickupRef.carrierData), where the carrier's cancel needs more than the number. */
  carrierData?: Record<string, string>;
}

/** What the driver collects, in total, as every carrier's pickup request asks. */
export interface PickupParcels {
  count: number;
  /** The boxes' total weight, in pounds. */
  weightLb: number;
}

/** Finds a pickup booked earlier with a reference, when the answer to the booking was lost (a crash, a time-out). */
export interface PickupLookup {
  reference: string;
  date: string;
  address: Address;
}

/** Whether and when a carrier's driver can come to an address on a day, as the carrier answers it. */
export interface PickupAvailability {
  available: boolean;
  /** HH:MM local at the address: the earliest ready time and the latest the driver can come, where the carrier says. */
  earliest: string | null;
  latest: string | null;
  /** HH:MM local: the latest a pickup for that day can be booked, where the carrier says. */
  bookBy: string | null;
  /** The carrier's own words when it cannot come. */
  reason: string | null;
}

/** One label handed over at the end of the day: every box's tracking number still good, and where it leaves from. */
export interface ClosingLabel {
  trackingNumbers: string[];
  service: string;
  from: Address;
}

/** The day's labels a carrier is told of at the end of the day (a manifest). */
export interface CloseRequest {
  /** YYYY-MM-DD: the labels' ship date (their mailing date). */
  shipDate: string;
  labels: ClosingLabel[];
}

/** One form or report the carrier made of the day's labels: its own number and file where it gave them. */
export interface CarrierForm {
  kind: 'usps_scan_form' | 'fedex_ground_close';
  /** The carrier's number for it (USPS's Electronic File Number); null where it gives none. */
  number: string | null;
  /** The tracking numbers it covers. */
  trackingNumbers: string[];
  /** The carrier's own files of it, as PDFs, in order; empty where it sent none. */
  pdfs: Buffer[];
}

/** `required: false`: none of these labels needs telling the carrier of (FedEx Express, say). */
export type CloseOutcome = { required: false } | { required: true; forms: CarrierForm[] };

/**
 * What every carrier does, live or simulated, in carrier-neutral terms: each adapter maps these to and from its
 * carrier's wire format. Failures come back as typed results; nothing here throws HTTP details at the caller.
 */
/** Where to look for locations that hold parcels: around a US ZIP Code, at most `limit` of them. */
export interface LocationQuery {
  zip: string;
  limit: number;
}

/** A carrier location that holds parcels for their recipients, as its carrier describes it. */
export interface FoundLocation {
  /** The carrier's own id, the one its ship request takes (UPS Access Point id, USPS facilityId, FedEx locationId). */
  id: string;
  name: string;
  /** What kind of location, in the carrier's words ("UPS Access Point", "Post Office", "FedEx Office"). */
  kind: string;
  address: { street1: string; street2?: string; city: string; state: string; zip: string; country: string };
  /** From the ZIP Code searched, where the carrier says. */
  distanceMiles: number | null;
}

export interface Carrier {
  readonly id: CarrierId;
  readonly name: string;
  readonly services: readonly ServiceInfo[];
  /** Whether calls can succeed now: false for a live carrier without credentials or an adapter. */
  readonly usable: boolean;
  /**
   * Whether asking again for this purchase with the same idempotency key returns the label already sold rather than
   * selling another (USPS's domestic labels honour X-Idempotency-Key, its international labels define none; UPS and
   * FedEx only echo their reference back). A purchase whose answer was lost is finished by asking again only where
   * this is true.
   */
  idempotentPurchase(request: PurchaseRequest): boolean;
  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>>;
  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>>;
  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>>;
  /**
   * Voids one box of a label of several (one of `label.boxes`), leaving the others to ship. Absent where shipd voids
   * only whole shipments with the carrier: such a label's boxes are voided all together.
   */
  voidBox?(label: LabelRef, box: BoxRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>>;
  /** Where voidBox is absent because the carrier's own API cancels only whole shipments: how it says so, for the client. */
  readonly wholeShipmentVoids?: string;
  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>>;
  /**
   * The most numbers one trackNumbers call takes: the carrier's own limit per request, 1 where its API tracks one
   * number per call.
   */
  readonly trackingBatchLimit: number;
  /**
   * What the carrier says now of numbers shipd did not sell (at most trackingBatchLimit), in one call. A failure is
   * the call's own (throttled, down, credentials refused): then no number was answered.
   */
  trackNumbers(parcels: TrackedParcel[], signal: AbortSignal): Promise<CarrierResult<TrackedNumbers>>;
  validateAddress?(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>>;
  /** A street-level check of an address in another country, where the carrier has one (FedEx's covers many). */
  validateAddressAbroad?(address: AnyAddress, signal: AbortSignal): Promise<CarrierResult<AddressCheck<AnyAddress>>>;
  /**
   * Asks the carrier to push the numbers' scans to `listener` (its tracking subscriptions), where the carrier
   * publishes an API for it (UPS Track Alert, USPS Subscriptions - Tracking). Answers the numbers it took and
   * refused, with the carrier's id of each subscription where it gives one.
   */
  subscribeTracking?(trackingNumbers: string[], listener: TrackingListener, signal: AbortSignal): Promise<CarrierResult<TrackingSubscriptions>>;
  /** How many numbers one subscribeTracking call takes. */
  readonly trackingSubscriptionBatch?: number;
  /**
   * Ends the subscription of one number, where the carrier publishes a call that ends one (USPS). Absent where it
   * has none (UPS Track Alert ends only a whole account's, and its subscriptions lapse after 14 days).
   */
  unsubscribeTracking?(subscriptionId: string, signal: AbortSignal): Promise<CarrierResult<void>>;
  /**
   * The proofs of delivery of a delivered parcel, each with its bytes: a call of their own, made once a parcel is
   * delivered because they make a larger answer (UPS's tracking asked with returnPOD, FedEx's tracking documents).
   * An empty list where the carrier has none. Absent where the carrier's API gives none (USPS's proof-of-delivery
   * call mails a letter).
   */
  proofOfDelivery?(parcel: DeliveredParcel, signal: AbortSignal): Promise<CarrierResult<ProofOfDelivery[]>>;
  /**
   * The carrier's locations near a ZIP Code where it holds a parcel for its recipient (options.hold_for_pickup with
   * options.hold_location), nearest first: UPS Access Points, Post Offices, FedEx locations.
   */
  findLocations?(query: LocationQuery, signal: AbortSignal): Promise<CarrierResult<FoundLocation[]>>;
  /** Absent where shipd has no integration with the carrier's pickup API. */
  schedulePickup?(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<BookedPickup>>;
  cancelPickup?(pickup: PickupRef, signal: AbortSignal): Promise<CarrierResult<void>>;
  /** What the carrier charges for this pickup, in US cents, before booking it; null where it charges nothing. Absent where it never charges. */
  quotePickup?(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<{ amountCents: number } | null>>;
  /** Finds the pickup booked with this reference, or null when the carrier has none. Absent where the carrier's API cannot find a pickup by our reference. */
  findPickup?(lookup: PickupLookup, signal: AbortSignal): Promise<CarrierResult<{ confirmationNumber: string } | null>>;
  /** Absent where the carrier publishes no availability call. */
  pickupAvailability?(query: { address: Address; date: string }, signal: AbortSignal): Promise<CarrierResult<PickupAvailability>>;
  /**
   * Tells the carrier of the day's labels at the end of the day (USPS SCAN forms, FedEx Ground close). Absent where
   * the carrier's API has no such call and its drivers need none (UPS), and in the simulators.
   */
  closeDay?(request: CloseRequest, signal: AbortSignal): Promise<CarrierResult<CloseOutcome>>;
}

export const ok = <T>(value: T): CarrierResult<T> => ({ ok: true, value });
export const failure = (code: CarrierErrorCode, detail: string): CarrierResult<never> => ({ ok: false, error: { code, detail } });
