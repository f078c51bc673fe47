import type { Mode } from '../kernel/mode.ts';

// Times are RFC 3339 UTC strings of fixed width, so they compare and sort as text on both databases.
// JSON values are stored as text for the same reason: one schema for SQLite and PostgreSQL.

export interface AccountsTable {
  id: string;
  name: string;
  plan: 'api' | 'basic';
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  mode: Mode;
  name: string | null;
  prefix: string;
  last4: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeySecretsTable {
  hash: string;
  key_id: string;
  created_at: string;
  /** null while the secret is current; set when the key is rolled. */
  expires_at: string | null;
}

/** One row, bumped by every change to keys, so caches in other processes know to forget. */
export interface KeyRevisionTable {
  id: number;
  revision: number;
}

export interface PaymentMethodsTable {
  account_id: string;
  mode: Mode;
  payment_method: string;
  /** A live card's brand, last four digits and expiry as Stripe reports them (JSON); null for test methods. */
  card: string | null;
  created_at: string;
}

export interface BillingCustomersTable {
  account_id: string;
  /** The Stripe Customer (cus_…) the account's live cards are attached to. */
  customer_id: string;
  created_at: string;
}

/**
 * One label's postage on a card: `authorizing` before Stripe is asked, `authorized` while the label is bought,
 * then `captured` (charged), `released` (the hold cancelled: no label), `declined`, or, once voided, `refund_due`
 * and `refunded`.
 */
export type CardChargeStatus = 'authorizing' | 'authorized' | 'declined' | 'captured' | 'released' | 'refund_due' | 'refunded';

export interface CardChargesTable {
  shipment_id: string;
  account_id: string;
  customer_id: string;
  payment_method: string;
  amount_cents: number;
  payment_intent_id: string | null;
  status: CardChargeStatus;
  captured_cents: number | null;
  refund_id: string | null;
  last_error: string | null;
  /** How many times Stripe was asked for it: each ask after a decline is a new request, under its own key. */
  attempts: number;
  /** A declined return paid on use: when the settle job asks the card again; null when nothing is scheduled. */
  retry_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A box's share of a card-paid label given back to the card when the box is voided on its own: `due` until Stripe has
 * refunded it (`refunded`), or `covered` when the card charge itself was let go of or refunded whole meanwhile: the
 * card then has everything back, whether or not the box's own refund had reached Stripe first.
 */
export interface CardBoxRefundsTable {
  shipment_id: string;
  /** The box's index in the shipment's packages, from 0. */
  box: number;
  amount_cents: number;
  status: 'due' | 'refunded' | 'covered';
  refund_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface LocationsTable {
  id: string;
  account_id: string;
  name: string;
  address: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  status: 'incomplete' | 'shipped' | 'delivered' | 'cancelled';
  order_number: string | null;
  ship_to: string;
  ship_from: string;
  ship_from_id: string | null;
  items: string;
  /** The first box (Parcel JSON); every box is in `parcels` when there are several. */
  parcel: string | null;
  /** JSON array of every box, where the order has more than one; null otherwise. */
  parcels: string | null;
  package_id: string | null;
  requested_service: string | null;
  /** The customs declaration as JSON (schemas/customs.ts Customs); null when the order has none. */
  customs: string | null;
  notes: string | null;
  metadata: string;
  shipment_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The transactional outbox: written in the same transaction as the change it reports. */
export interface EventsTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  type: string;
  resource_id: string;
  data: string;
  created_at: string;
  /** When the delivery worker fanned the event out to its webhooks; null until then. */
  dispatched_at: string | null;
}

export interface IdempotencyKeysTable {
  owner_key_id: string;
  method: string;
  path: string;
  idem_key: string;
  fingerprint: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  /** A running claim older than this was abandoned by a crash and may be taken over. */
  locked_until: string;
  created_at: string;
  expires_at: string;
}

export interface JobsTable {
  id: string;
  name: string;
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  unique_key: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * One rate shop's quotes, buyable until they expire. `rates` is the JSON array of Rates as the API returned
 * them; each rate's id is `rate_` + `rate_key` + its index (see domain/rating/rate-ids.ts).
 */
export interface RateShopsTable {
  rate_key: string;
  id: string;
  owner_key_id: string;
  mode: Mode;
  order_id: string | null;
  /** Of the addresses and parcel quoted for: a purchase must match them. */
  inputs_fingerprint: string;
  /** The day asked for (YYYY-MM-DD); null for today, whenever a rate is bought. */
  ship_date: string | null;
  /** The delivery options asked for, as JSON (ShipmentOptions); null for none. */
  options: string | null;
  /**
   * The value asked to insure the whole shipment for (the request's `insurance`), in cents; null for none. Boxes
   * insured one by one are bound to the rates by inputs_fingerprint, as the boxes are.
   */
  insured_cents: number | null;
  rates: string;
  created_at: string;
  expires_at: string;
}

/** An account's own box; `dimensions` and `max_weight` are the API's Dimensions and Weight. */
export interface PackagesTable {
  id: string;
  account_id: string;
  name: string;
  dimensions: string;
  max_weight: string;
  /** 1 for the one box orders and rates use when they name no package and give no dimensions. */
  is_default: number;
  created_at: string;
}

/** `abandoned`: the carrier's answer was lost and it cannot be asked again without risking a second label. */
export type ShipmentStatus = 'pending' | 'purchased' | 'voided' | 'void_pending' | 'failed' | 'abandoned';

/**
 * A label purchase. `pending` rows were written before the carrier was called and are not shown to clients;
 * `failed` ones record a purchase the carrier refused. `purchase` is the JSON of what was bought (addresses,
 * parcel, ship date, quote), enough to buy it again after a crash and to render the label.
 */
export interface ShipmentsTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  order_id: string;
  status: ShipmentStatus;
  is_return: number;
  carrier: string;
  service: string;
  rate_id: string | null;
  quoted_cents: number;
  postage_cents: number | null;
  payment: 'platform' | 'carrier_account' | 'none';
  payment_method: string | null;
  label_format: 'pdf' | 'zpl' | 'png';
  tracking_number: string | null;
  carrier_shipment_id: string | null;
  purchase: string;
  idempotency_key: string | null;
  metadata: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  /** The tracking status last reported, and how many carrier scans were reported with it. */
  tracking_status: string | null;
  tracking_events: number | null;
  /** When the tracking worker next asks the carrier; null once the journey has ended or the label is void. */
  tracking_next_check_at: string | null;
  /** The end-of-day form the label was handed over on, if any. */
  manifest_id: string | null;
  /** The day the label is for, YYYY-MM-DD in its ship-from location's time zone: its manifest's day. */
  ship_date: string;
  /**
   * The value the carrier insures the shipment for, in cents: the shipment's, or the sum of its boxes' own (each box's
   * is in the purchase record's boxes); null for none. Its cost is in the postage.
   */
  insured_cents: number | null;
  /** A return label's: paid when bought, or when the carrier first scans it; null for outbound labels. */
  return_charge: ReturnCharge | null;
  /**
   * A return paid on use, once scanned: its postage being charged (`pending`), charged (`paid`), or owed after the card
   * declined it (`past_due`, asked again at its charge's retry_at); null before the scan and for every other label.
   */
  charge_status: ReturnChargeStatus | null;
  /** JSON array of StoredBox, where the label has several boxes; null for one box, which is the label itself. */
  packages: string | null;
  /** The carrier's number for the boxes together (UPS, FedEx); null where it has none or for one box. */
  master_tracking_number: string | null;
}

export type ReturnCharge = 'on_create' | 'on_use';
export type ReturnChargeStatus = 'pending' | 'paid' | 'past_due';

/**
 * A tracking number a key follows: a label's (`label`, written with the label's tracking) or one bought elsewhere
 * (`external`, checked by the trackers worker). `events` is the JSON array of the API's TrackingEvents, oldest first.
 */
export interface TrackersTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  carrier: string;
  tracking_number: string;
  origin: 'label' | 'external';
  /** The label's shipment; null for an external tracker. */
  shipment_id: string | null;
  /** A later box's index in its shipment's packages (1 and up); null for the shipment's own tracker and external ones. */
  package: number | null;
  order_id: string | null;
  status: string;
  status_detail: string;
  events: string;
  estimated_delivery_date: string | null;
  signed_by: string | null;
  metadata: string;
  /** When the tracking worker last asked the carrier (or the tracker was made, which asks it too). */
  last_checked_at: string | null;
  /** When the carrier is next asked; null once the journey has ended or the tracker was stopped. */
  next_check_at: string | null;
  created_at: string;
  /** When shipd last recorded a change: a scan, a status, the tracker stopped. */
  updated_at: string;
  /** When DELETE /trackers/{id} stopped it; null while it is followed. */
  deleted_at: string | null;
  /** The proofs of delivery on file, a JSON array of StoredProof; null until the carrier was asked, `[]` when it had none. */
  proof_of_delivery: string | null;
  /** When the proofs worker next asks the carrier for them; null when it need not. */
  proof_due_at: string | null;
  /** Failed asks for the proofs so far. */
  proof_attempts: number;
}

export interface PostageLedgerTable {
  id: string;
  account_id: string;
  mode: Mode;
  owner_key_id: string;
  shipment_id: string;
  /** `refund_box{n}`: box n's share, given back when it was voided on its own; `refund` gives back the rest. */
  kind: 'charge' | 'refund' | `refund_box${number}`;
  /** Positive for a charge, negative for a refund. */
  amount_cents: number;
  payment_method: string;
  created_at: string;
}

export interface LabelFilesTable {
  shipment_id: string;
  format: string;
  content: Buffer;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  secret: string;
  /** After a rotation the old secret signs too until it expires, so receivers can switch over. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  /** When the first of the current run of failed attempts happened; null after a success. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  owner_key_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  /** A worker holds the delivery until then; past it another worker may take it over. */
  locked_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  webhook_id: string;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  next_attempt_at: string | null;
}

/** An account's own live credentials for one carrier; `credentials` is sealed JSON (kernel/secret-box.ts). */
/** An account's own carrier account for one mode (test-mode ones rehearse onboarding: test keys always use the simulators). */
export interface CarrierAccountsTable {
  id: string;
  account_id: string;
  mode: Mode;
  carrier: string;
  description: string | null;
  status: 'connected' | 'failing';
  last_tested_at: string | null;
  /** What the carrier answered when the last connection test failed; null after a test it passed. */
  last_test_error: string | null;
  client_id_last4: string;
  credentials: string;
  created_at: string;
  updated_at: string;
}

export type BatchStatus = 'queued' | 'processing' | 'completed';
export type BatchItemStatus = 'pending' | 'purchased' | 'failed';

export interface BatchesTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  status: BatchStatus;
  selection: 'cheapest' | 'requested';
  label_format: 'pdf' | 'zpl' | 'png';
  /** YYYY-MM-DD every label ships on; null: the day each is bought. */
  ship_date: string | null;
  label_size: '4x6' | '4x8' | 'letter';
  label_resolution: 203 | 300;
  /** Every label's delivery options, as storedOptions writes them; null for none. */
  options: string | null;
  total: number;
  purchased: number;
  failed: number;
  /** The merged labels file, once the batch has completed with at least one label. */
  document_format: 'pdf' | 'zpl' | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface BatchItemsTable {
  batch_id: string;
  position: number;
  order_id: string;
  status: BatchItemStatus;
  shipment_id: string | null;
  /** The problem document (JSON) of an order that got no label. */
  error: string | null;
  updated_at: string;
}

export interface ManifestsTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  carrier: string;
  ship_date: string;
  shipment_count: number;
  total_weight_oz: number;
  total_postage_cents: number;
  created_at: string;
  /** What the carrier was told of it (the Manifest's carrier_manifest). */
  carrier_manifest: CarrierManifestState;
  /** JSON array of StoredCarrierForm: the forms or reports the carrier made of it. */
  carrier_forms: string;
  /** The Idempotency-Key of the POST that made it, so a retry finds it. */
  idempotency_key: string | null;
  /** While `pending`: until when the request asking the carrier, or the worker finishing it, holds it. */
  locked_until: string | null;
  /** Why the carrier part failed (`failed`), in words a person can act on. */
  carrier_error: string | null;
}

export type CarrierManifestState = 'simulated' | 'pending' | 'submitted' | 'not_required' | 'not_sent' | 'failed';

/** One carrier form of a manifest as stored: the carrier's number for it and the labels on it. */
export interface StoredCarrierForm {
  kind: 'usps_scan_form' | 'fedex_ground_close';
  number: string | null;
  shipment_ids: string[];
  tracking_count: number;
}

/** A carrier pickup. `address` is the Address JSON (a location's, copied, when ship_from_id named one); times are local there. */
export interface PickupsTable {
  id: string;
  owner_key_id: string;
  account_id: string;
  mode: Mode;
  /**
   * `pending` while the carrier is being asked (hidden from the API: the booking is not known yet), `failed` when the
   * carrier or the card refused it (hidden too; a retry with its Idempotency-Key may book anew), `abandoned` when its
   * answer was lost and the carrier cannot be asked safely again (its Idempotency-Key answers the failure).
   */
  status: 'pending' | 'scheduled' | 'cancelled' | 'failed' | 'abandoned';
  carrier: string;
  /** Empty while pending. */
  confirmation_number: string;
  ship_from_id: string | null;
  address: string;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  window_start: string;
  window_end: string;
  /** JSON array of shp_ ids. */
  shipment_ids: string;
  instructions: string | null;
  created_at: string;
  cancelled_at: string | null;
  /** JSON PickupParcels (count, weightLb); null on pickups booked before live pickups. */
  parcels: string | null;
  /** JSON array of the labels' tracking numbers the carrier was sent, so a retry sends the same. */
  tracking_numbers: string | null;
  /** What the carrier charges for it, in US cents; null where it charges nothing or said no price. */
  price_cents: number | null;
  /** Who pays the price: shipd's account (charged to the payment method) or the account's own carrier account. */
  payment: 'platform' | 'carrier_account' | null;
  payment_method: string | null;
  idempotency_key: string | null;
  last_error: string | null;
  updated_at: string | null;
  /** JSON object of what the carrier's cancel needs beyond the confirmation number (BookedPickup.carrierData); null for nothing. */
  carrier_data: string | null;
  /** JSON array of the named labels' service codes (FedEx books Ground and Express drivers apart); null when none were named. */
  services: string | null;
  /**
   * The address as a carrier that keeps one pickup per address and day tells it apart (UPS); null for the other
   * carriers, and for pickups booked before the rule was kept. At most one pending or scheduled pickup of an account
   * and mode holds a place on a day, and at most one scheduled one a confirmation number where a place is held.
   */
  place: string | null;
}

/** A priced pickup's charge and its refund: at most one of each per pickup. */
export interface PickupLedgerTable {
  id: string;
  account_id: string;
  mode: Mode;
  owner_key_id: string;
  pickup_id: string;
  kind: 'charge' | 'refund';
  /** Positive for a charge, negative for a refund. */
  amount_cents: number;
  payment_method: string;
  created_at: string;
}

/** An owner also manages the account's dashboard users; a member does everything else. */
export type DashboardUserRole = 'owner' | 'member';

/** A person who signs in to the web dashboard, acting for one account. */
export interface DashboardUsersTable {
  id: string;
  account_id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** Argon2id, in its PHC string form. */
  password_hash: string;
  role: DashboardUserRole;
  /** Set while the user may not sign in; a disabled user has no session. */
  disabled_at: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DashboardSessionsTable {
  /** SHA-256 of the session id the cookie carries. */
  id_hash: string;
  user_id: string;
  /** The synchronizer token every form of this session must send back. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end, however active the session is. */
  expires_at: string;
}

/** A run of failed sign-ins for one email from one client address (sign-in.ts). */
export interface DashboardLoginFailuresTable {
  email: string;
  client: string;
  failures: number;
  last_failed_at: string;
}

export interface ApiKeyUsageTable {
  key_id: string;
  last_used_at: string;
}

/** A number's tracking subscription with its carrier (migration 028), shared by every live tracker of the number. */
export interface CarrierSubscriptionsTable {
  carrier: string;
  tracking_number: string;
  /**
   * pending: to be subscribed; subscribed: the carrier pushes its scans; unsupported: the carrier (or this server) takes
   * no subscription; unsubscribed: ended with the carrier once nobody followed the number.
   */
  state: 'pending' | 'subscribed' | 'unsupported' | 'unsubscribed';
  /** The carrier's id of the subscription, where it gives one (USPS). */
  subscription_id: string | null;
  attempts: number;
  /** When the worker next tries to subscribe (or renew); null when nothing is to be done. */
  next_attempt_at: string | null;
  subscribed_at: string | null;
  /** When the carrier stops pushing unless renewed (UPS: 14 days after subscribing). */
  expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
  key_revision: KeyRevisionTable;
  payment_methods: PaymentMethodsTable;
  locations: LocationsTable;
  orders: OrdersTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  rate_shops: RateShopsTable;
  packages: PackagesTable;
  shipments: ShipmentsTable;
  trackers: TrackersTable;
  carrier_subscriptions: CarrierSubscriptionsTable;
  postage_ledger: PostageLedgerTable;
  billing_customers: BillingCustomersTable;
  card_charges: CardChargesTable;
  card_box_refunds: CardBoxRefundsTable;
  label_files: LabelFilesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  carrier_accounts: CarrierAccountsTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  manifests: ManifestsTable;
  pickups: PickupsTable;
  pickup_ledger: PickupLedgerTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_login_failures: DashboardLoginFailuresTable;
  api_key_usage: ApiKeyUsageTable;
}
