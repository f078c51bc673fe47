// The examples of the OpenAPI document: one test-mode story, recorded from a shipd server and kept as data. An
// order from the README's addresses is rated, bought a UPS Ground label, picked up, manifested, tracked to the door
// and sent back; its ids are newId's at the times shown. test/openapi.test.ts checks each against its schema.
import { carrierCatalog } from '../carriers/catalog.ts';

export const ids = {
  location: 'loc_01m7wtz900aendy8199cwfefnv',
  webhook: 'whk_01m819eke05kh3r4rv97se23dv',
  order: 'ord_01m84ez1r0e48s8h413gfsm22b',
  orderAbroad: 'ord_01m84ka1w0g8xq0jhqm4d6t1za',
  rateShop: 'rsh_01m84ez2x63m4cx6panfd15k03',
  rates: ['rate_01m84ez2x6q32s6p2z4212hq00', 'rate_01m84ez2x6q32s6p2z4212hq01', 'rate_01m84ez2x6q32s6p2z4212hq02'],
  shipment: 'shp_01m84ez4e82aw5snv1vx62zpn7',
  event: 'evt_01m84ez4e9838s3wbw9zqdyw5b',
  delivery: 'dlv_01m84ez4eadrv8jtn9wzaf1nsm',
  pickup: 'pku_01m84js0b1cwjhzr4kr959j173',
  manifest: 'man_01m856rpsacr6v4b5v712zgy08',
  batchOrders: ['ord_01m87ajqa2brcs3hfs21bjhkz5', 'ord_01m87ajqqten4akawjfz1bj9tg'],
  batch: 'bat_01m87am9wg5t46esgxk1acnpze',
  batchShipment: 'shp_01m87amakbaetf1fqcretj0gxh',
  returnShipment: 'shp_01m8nz2ktp20wxmnyreq4j2sch',
  carrierAccount: 'ca_01m7wtz9000k7c1x5r2w8n4t6b',
  fedexGroundShipments: ['shp_01m84vcexr7jj79jfpmvvc4jwh', 'shp_01m84vka7tcbatgcgcfhs5fppt'],
  upsLiveManifest: 'man_01m856xn2r44cb2qm1mw95qffp',
  fedexManifest: 'man_01m8570h97a0d82xfe375s6a05',
  livePickup: 'pku_01m84kkmbp42qdh83k3g3pcqnx',
};

const files = 'http://localhost:8080/api/integrations/v1/labels';
export const trackingNumber = '1ZSHPD010332972354';

export const shipTo = { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };
export const shipFrom = { name: 'Acme Mugs', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', phone: '512-555-0142' };
export const shipToAbroad = { name: 'Jean Tremblay', street1: '111 Wellington St', city: 'Ottawa', state: 'ON', zip: 'K1A 0A9', country: 'CA', phone: '+1 613 555 0142' };
export const shipToGuam = { name: 'Maria Cruz', street1: '176 Serenu Ave', city: 'Hagatna', state: 'GU', zip: '96910' };
export const parcel = { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } };
export const lineItem = { sku: 'MUG-1', name: 'Stoneware mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' } };

export const orderCreate = { order_number: '1042', ship_to: { ...shipTo, email: 'ada@example.com' }, items: [lineItem], parcel, metadata: { shop_order: '1042' } };

const customsHeader = { contents_type: 'merchandise', non_delivery: 'return', invoice_number: 'INV-1042', signer: 'Grace Hopper', certify: true } as const;
/** An order's declaration as sent: its one item named by the line item's sku, with what the line item lacks. */
export const customsInput = { ...customsHeader, items: [{ sku: 'MUG-1', hs_tariff_number: '6912.00', origin_country: 'US' }] };
/** The same declaration as the order stores it, the item completed from its line item. */
export const customs = {
  ...customsHeader,
  incoterm: 'DAP',
  items: [{ description: lineItem.name, quantity: lineItem.quantity, unit_value: lineItem.unit_price, weight: lineItem.weight, hs_tariff_number: '691200', origin_country: 'US', sku: 'MUG-1' }],
};
/** A declaration with every item complete, as a rate request without an order sends it. */
export const customsInputComplete = { ...customsHeader, items: customs.items };

const order = {
  id: ids.order,
  object: 'order',
  status: 'incomplete',
  order_number: '1042',
  ship_to: { ...orderCreate.ship_to, country: 'US' },
  ship_from: { ...shipFrom, country: 'US' },
  ship_from_id: ids.location,
  items: [lineItem],
  parcel,
  parcels: [parcel],
  package_id: null,
  requested_service: null,
  customs: null,
  notes: null,
  metadata: { shop_order: '1042' },
  shipment_id: null,
  mode: 'test',
  created_at: '2026-11-23T15:04:05.120Z',
  updated_at: '2026-11-23T15:04:05.120Z',
};

/** Just made, then with its label bought; and one to Canada with its customs declaration. */
export const orders = [
  order,
  { ...order, status: 'shipped', shipment_id: ids.shipment, updated_at: '2026-11-23T15:04:07.880Z' },
  { ...order, id: ids.orderAbroad, order_number: '1043', ship_to: shipToAbroad, customs, metadata: {}, created_at: '2026-11-23T16:20:00.000Z', updated_at: '2026-11-23T16:20:00.000Z' },
];

const expires = '2026-11-24T15:04:06.310Z';
export const rates = [
  { id: ids.rates[0]!, object: 'rate', carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE', service_name: 'USPS Ground Advantage', amount: { amount: '12.00', currency: 'USD' }, list_amount: { amount: '16.45', currency: 'USD' }, surcharges: [], billable_weight: { value: 2, unit: 'lb' }, zone: '7', delivery_days: 5, estimated_delivery_date: '2026-11-30', guaranteed: false, expires_at: expires },
  { id: ids.rates[1]!, object: 'rate', carrier: 'usps', service: 'PRIORITY_MAIL', service_name: 'Priority Mail', amount: { amount: '16.31', currency: 'USD' }, list_amount: { amount: '19.45', currency: 'USD' }, surcharges: [], billable_weight: { value: 2, unit: 'lb' }, zone: '7', delivery_days: 3, estimated_delivery_date: '2026-11-26', guaranteed: false, expires_at: expires },
  { id: ids.rates[2]!, object: 'rate', carrier: 'ups', service: '03', service_name: 'UPS Ground', amount: { amount: '25.77', currency: 'USD' }, list_amount: { amount: '31.59', currency: 'USD' }, surcharges: [{ type: 'residential', amount: { amount: '6.50', currency: 'USD' } }, { type: 'fuel', amount: { amount: '4.69', currency: 'USD' } }], billable_weight: { value: 3, unit: 'lb' }, zone: '7', delivery_days: 4, estimated_delivery_date: '2026-11-27', guaranteed: false, expires_at: expires },
];

export const rateShop = { id: ids.rateShop, object: 'rate_shop', order_id: ids.order, insurance: null, ship_date: '2026-11-23', options: {}, rates, errors: [], created_at: '2026-11-23T15:04:06.310Z' };

export const shipment = {
  id: ids.shipment,
  object: 'shipment',
  order_id: ids.order,
  status: 'purchased',
  carrier: 'ups',
  service: '03',
  service_name: 'UPS Ground',
  tracking_number: trackingNumber,
  label_url: `${files}/${ids.shipment}.pdf?token=1796051047.VCaC4I1fOXVEcuDnHn8cjc2sr_ru1BMoTX_bo6VFKls`,
  label_format: 'pdf',
  label_size: '4x6',
  label_resolution: null,
  references: ['1042'],
  postage: { amount: '25.77', currency: 'USD' },
  surcharges: rates[2]!.surcharges,
  payment: 'platform',
  rate_id: ids.rates[2]!,
  ship_date: '2026-11-23',
  options: {},
  insurance: null,
  is_return: false,
  charge: null as 'on_create' | 'on_use' | null,
  return_status: null as 'unused' | 'in_transit' | 'delivered' | null,
  charge_status: null as 'pending' | 'paid' | 'past_due' | null,
  metadata: {},
  mode: 'test',
  created_at: '2026-11-23T15:04:07.880Z',
  voided_at: null,
  documents: [] as { type: 'commercial_invoice' | 'cn22' | 'cn23'; format: 'pdf'; url: string }[],
  packages: [
    {
      tracking_number: trackingNumber,
      label_url: `${files}/${ids.shipment}.box1.pdf?token=1796051047.VCaC4I1fOXVEcuDnHn8cjc2sr_ru1BMoTX_bo6VFKls`,
      weight: { value: 2, unit: 'lb' },
      dimensions: { length: 10, width: 8, height: 4, unit: 'in' },
      status: 'purchased',
      voided_at: null,
      tracking_status: 'pre_transit',
    } as {
      tracking_number: string;
      label_url: string;
      weight: { value: number; unit: 'lb' };
      dimensions?: { length: number; width: number; height: number; unit: 'in' };
      reference?: string;
      status: 'purchased' | 'voided' | 'void_pending';
      voided_at: string | null;
      tracking_status: 'pre_transit' | 'in_transit' | 'cancelled';
    },
  ],
  master_tracking_number: null as string | null,
};

/**
 * One UPS Ground shipment of three boxes: one label per box, filed under the first box's number; the second box
 * insured for $450 (UPS's $8.50 for it in the postage), the others not. Box 3 was voided on its own before pickup;
 * the other two are on their way.
 */
export const shipmentSeveralBoxes = {
  ...shipment,
  postage: { amount: '66.62', currency: 'USD' },
  surcharges: [...shipment.surcharges, { type: 'insurance', amount: { amount: '8.50', currency: 'USD' } }],
  insurance: { amount: { amount: '450.00', currency: 'USD' } },
  master_tracking_number: trackingNumber,
  packages: [
    { ...shipment.packages[0]!, reference: 'Box 1: mugs', tracking_status: 'in_transit' as const },
    {
      tracking_number: '1ZSHPD010332972363',
      label_url: `${files}/${ids.shipment}.box2.pdf?token=1796051047.VCaC4I1fOXVEcuDnHn8cjc2sr_ru1BMoTX_bo6VFKls`,
      weight: { value: 1.5, unit: 'lb' as const },
      dimensions: { length: 8, width: 6, height: 4, unit: 'in' as const },
      reference: 'Box 2: saucers',
      insurance: { amount: { amount: '450.00', currency: 'USD' as const } },
      status: 'purchased' as const,
      voided_at: null,
      tracking_status: 'in_transit' as const,
    },
    {
      tracking_number: '1ZSHPD010332972372',
      label_url: `${files}/${ids.shipment}.box3.pdf?token=1796051047.VCaC4I1fOXVEcuDnHn8cjc2sr_ru1BMoTX_bo6VFKls`,
      weight: { value: 4, unit: 'lb' as const },
      status: 'voided' as const,
      voided_at: '2026-11-23T16:12:40.315Z',
      tracking_status: 'cancelled' as const,
    },
  ],
};

/** A label abroad: Priority Mail International to Canada, with its CN 23 behind the label's signed link. */
export const shipmentAbroad = {
  ...shipment,
  carrier: 'usps',
  service: 'PRIORITY_MAIL_INTERNATIONAL',
  service_name: 'Priority Mail International',
  tracking_number: 'CP123456785US',
  packages: [{ ...shipment.packages[0]!, tracking_number: 'CP123456785US' }],
  postage: { amount: '46.40', currency: 'USD' },
  surcharges: [],
  documents: [{ type: 'cn23' as const, format: 'pdf' as const, url: `${files}/${ids.shipment}.cn23.pdf?token=1796051047.VCaC4I1fOXVEcuDnHn8cjc2sr_ru1BMoTX_bo6VFKls` }],
};

export const returnShipment = {
  ...shipment,
  id: ids.returnShipment,
  tracking_number: '1ZSHPD010315609083',
  label_url: `${files}/${ids.returnShipment}.pdf?token=1796638364.1s35pBqFTF13Qwql9a1EKU9WMpZEAH3X7O-LVmh4vVc`,
  packages: [
    {
      ...shipment.packages[0]!,
      tracking_number: '1ZSHPD010315609083',
      label_url: `${files}/${ids.returnShipment}.box1.pdf?token=1796638364.1s35pBqFTF13Qwql9a1EKU9WMpZEAH3X7O-LVmh4vVc`,
    },
  ],
  rate_id: null,
  is_return: true,
  charge: 'on_use' as const,
  return_status: 'unused' as const,
  metadata: { rma: 'RMA-2291' },
  ship_date: '2026-11-30',
  created_at: '2026-11-30T10:12:44.502Z',
};

/** The same return once the customer sent it, with a live card that declined its charge at the first scan. */
export const returnShipmentPastDue = { ...returnShipment, return_status: 'in_transit' as const, charge_status: 'past_due' as const, mode: 'live' };

/** The story's scans are all in November, on standard time. */
const novemberClocks: Record<string, { utc_offset: string; time_zone: string }> = {
  TX: { utc_offset: '-06:00', time_zone: 'America/Chicago' },
  IL: { utc_offset: '-06:00', time_zone: 'America/Chicago' },
  MN: { utc_offset: '-06:00', time_zone: 'America/Chicago' },
  NV: { utc_offset: '-08:00', time_zone: 'America/Los_Angeles' },
  CA: { utc_offset: '-08:00', time_zone: 'America/Los_Angeles' },
};

const scan = (occurred_at: string, status: string, description: string, city: string, state: string, zip: string) => ({
  occurred_at,
  ...novemberClocks[state]!,
  status,
  description,
  location: { city, state, zip, country: 'US' },
});

export const trackingEvents = [
  scan('2026-11-23T15:04:07.880Z', 'pre_transit', 'Shipping label created, awaiting item', 'AUSTIN', 'TX', '78701'),
  scan('2026-11-23T18:00:00.000Z', 'in_transit', 'Picked up', 'AUSTIN', 'TX', '78701'),
  scan('2026-11-24T14:45:00.000Z', 'in_transit', 'Arrived at facility', 'ODESSA', 'TX', '79764'),
  scan('2026-11-26T11:15:00.000Z', 'in_transit', 'Departed facility', 'LAS VEGAS', 'NV', '89179'),
  scan('2026-11-27T05:00:00.000Z', 'in_transit', 'Arrived at destination facility', 'SAN FRANCISCO', 'CA', '94105'),
  scan('2026-11-27T08:00:00.000Z', 'out_for_delivery', 'Out for delivery', 'SAN FRANCISCO', 'CA', '94105'),
  scan('2026-11-27T14:00:00.000Z', 'delivered', 'Delivered, front door', 'SAN FRANCISCO', 'CA', '94105'),
];

export const tracker = {
  id: `trk_${ids.shipment.slice('shp_'.length)}`,
  object: 'tracker',
  tracking_number: trackingNumber,
  carrier: 'ups',
  order_id: ids.order,
  shipment_id: ids.shipment,
  status: 'delivered',
  status_detail: 'Delivered, front door',
  estimated_delivery_date: '2026-11-27',
  events: trackingEvents,
  origin: 'label' as const,
  signed_by: 'LOVELACE',
  proof_of_delivery: [
    {
      type: 'document' as const,
      content_type: 'application/pdf',
      url: `${files}/trk_${ids.shipment.slice('shp_'.length)}.pod1.pdf?token=1796652000.Xa3Bq0n0Fv1W4hQz7M2tYc8kR5uPj6sLdE9gHiNoTrA`,
    },
  ],
  metadata: {},
  last_checked_at: '2026-11-27T14:00:00.431Z',
  next_check_at: null,
  created_at: '2026-11-23T15:04:07.880Z',
  updated_at: '2026-11-27T14:00:00.431Z',
};

/** A FedEx number bought in a marketplace, followed since the morning after the story's label. */
export const externalTrackingNumber = '770818234654';
export const externalTracker = {
  id: 'trk_01m86ch5jggvmvzqbb8b4f6prz',
  object: 'tracker',
  tracking_number: externalTrackingNumber,
  carrier: 'fedex',
  origin: 'external' as const,
  order_id: null,
  shipment_id: null,
  status: 'in_transit',
  status_detail: 'Arrived at facility',
  estimated_delivery_date: '2026-11-26',
  signed_by: null,
  proof_of_delivery: [],
  events: [
    scan('2026-11-24T09:00:02.000Z', 'pre_transit', 'Shipping label created, awaiting item', 'CHICAGO', 'IL', '60601'),
    scan('2026-11-24T18:00:00.000Z', 'in_transit', 'Picked up', 'CHICAGO', 'IL', '60601'),
    scan('2026-11-25T09:30:00.000Z', 'in_transit', 'Arrived at facility', 'MINNEAPOLIS', 'MN', '55401'),
  ],
  metadata: { marketplace_order: '113-4471' },
  last_checked_at: '2026-11-25T09:30:00.652Z',
  next_check_at: '2026-11-25T12:30:00.000Z',
  created_at: '2026-11-24T09:00:02.000Z',
  updated_at: '2026-11-25T09:30:00.652Z',
};

export const location = {
  id: ids.location,
  object: 'location',
  name: 'Austin warehouse',
  address: { ...shipFrom, country: 'US' },
  is_default: true,
  created_at: '2026-11-20T16:00:00.000Z',
  updated_at: '2026-11-20T16:00:00.000Z',
};

export const carrierAccountCreate = {
  carrier: 'ups',
  description: "Acme Mugs' own UPS account",
  credentials: { client_id: 'GVHn3DzbE7P1x0W6mT2qYc9KfLrA5sUo8jNiBhQ4RdXe', client_secret: 'V2kq8Zr1TbLc0Wn7Ys4Hd3Mf6Gp9Jx5A', account_number: 'A1B2C3' },
};

export const carrierAccount = {
  id: ids.carrierAccount,
  object: 'carrier_account',
  carrier: 'ups',
  description: "Acme Mugs' own UPS account",
  account_number: '****B2C3',
  mode: 'live',
  status: 'connected',
  last_tested_at: '2026-11-20T16:05:00.000Z',
  last_test_error: null,
  created_at: '2026-11-20T16:00:00.000Z',
  updated_at: '2026-11-20T16:05:00.000Z',
};

export const packagePreset = {
  id: 'pkg_usps_medium_flat_rate_box',
  object: 'package',
  name: 'USPS Priority Mail Medium Flat Rate Box',
  kind: 'carrier_box',
  carrier: 'usps',
  dimensions: { length: 11, width: 8.5, height: 5.5, unit: 'in' },
  max_weight: { value: 70, unit: 'lb' },
  flat_rate: true,
  is_default: false,
  created_at: null,
};

const ups = carrierCatalog.find((c) => c.id === 'ups')!;
export const carrier = { id: ups.id, object: 'carrier', name: ups.name, services: ups.services, mode: 'test', connected: true };

export const addressValidation = {
  valid: true,
  address: { street1: '415 MISSION ST', street2: 'APT 4B', city: 'SAN FRANCISCO', state: 'CA', zip: '94105-1804', country: 'US', residential: true },
  corrections: [
    { field: 'street1', from: '415 mission street apt 4b', to: '415 MISSION ST' },
    { field: 'street2', from: '', to: 'APT 4B' },
    { field: 'city', from: 'san fransisco', to: 'SAN FRANCISCO' },
    { field: 'zip', from: '941051804', to: '94105-1804' },
  ],
  messages: [{ code: 'city_corrected', detail: 'ZIP 94105 is SAN FRANCISCO' }],
  residential: true,
  checks: [
    { check: 'street_format', detail: 'street1 parsed and written in USPS Publication 28 style' },
    { check: 'zip_city_state', detail: 'ZIP 94105 exists and is SAN FRANCISCO, CA (US Census ZIP list)' },
  ],
};

export const webhookCreate = { url: 'https://example.com/hooks/shipd', events: ['shipment.created', 'shipment.voided', 'tracking.updated'], description: 'Order system' };

export const webhook = {
  id: ids.webhook,
  object: 'webhook',
  url: webhookCreate.url,
  events: ['shipment.created', 'shipment.voided', 'tracking.updated'],
  description: webhookCreate.description,
  status: 'enabled',
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-22T09:30:00.000Z',
  updated_at: '2026-11-22T09:30:00.000Z',
};

export const webhookWithSecret = { ...webhook, secret: 'whsec_zKODmF2oNznYIPuo4VKONsbjl9cdGcb8dVYeEpZhdGM=', secret_withheld: null };

export const delivery = {
  id: ids.delivery,
  object: 'webhook_delivery',
  webhook_id: ids.webhook,
  event_id: ids.event,
  event_type: 'shipment.created',
  status: 'succeeded',
  attempt_count: 1,
  next_attempt_at: null,
  delivered_at: '2026-11-23T15:04:09.397Z',
  attempts: [{ attempt: 1, attempted_at: '2026-11-23T15:04:09.397Z', status_code: 204, latency_ms: 234, error: null, response_excerpt: '', next_attempt_at: null }],
  created_at: '2026-11-23T15:04:07.882Z',
};

export const event = { id: ids.event, object: 'event', type: 'shipment.created', data: shipment, created_at: '2026-11-23T15:04:07.880Z' };

const batchCompleted = '2026-11-24T17:46:03.204Z';
export const batch = {
  id: ids.batch,
  object: 'batch',
  status: 'completed',
  selection: 'cheapest',
  label_format: 'pdf',
  label_size: '4x6',
  label_resolution: null,
  ship_date: null,
  options: {},
  counts: { total: 2, pending: 0, purchased: 1, failed: 1 },
  label_url: `${files}/${ids.batch}.pdf?token=1796147163.lCxnkFyu7zgRKPM8MYOGrUQSiccn244eQYkLYPpSwCU`,
  metadata: {},
  mode: 'test',
  created_at: '2026-11-24T17:46:02.000Z',
  updated_at: batchCompleted,
  completed_at: batchCompleted,
  results: [
    { order_id: ids.batchOrders[0]!, status: 'purchased', shipment_id: ids.batchShipment, error: null },
    {
      order_id: ids.batchOrders[1]!,
      status: 'failed',
      shipment_id: null,
      error: {
        type: 'http://localhost:8080/problems/order_not_purchasable',
        title: 'Only incomplete orders can be bought a label',
        status: 409,
        detail: `Order ${ids.batchOrders[1]} is cancelled; only incomplete orders can be bought a label`,
        code: 'order_not_purchasable',
        request_id: `${ids.batch}:1`,
      },
    },
  ],
};

export const manifest = {
  id: ids.manifest,
  object: 'manifest',
  carrier: 'ups',
  ship_date: '2026-11-23',
  shipment_ids: [ids.shipment],
  shipment_count: 1,
  total_weight: { value: 2, unit: 'lb' },
  total_postage: { amount: '25.77', currency: 'USD' },
  form_url: `${files}/${ids.manifest}.pdf?token=1796076003.qV6nUPZ3Ls5MsJhHm5SxhmpM17-Vtsni47HFDW1ej6Y`,
  carrier_manifest: 'simulated',
  carrier_forms: [],
  carrier_error: null,
  mode: 'test',
  created_at: '2026-11-23T22:00:03.114Z',
};

/** A live USPS manifest: its labels on one SCAN form USPS made, whose PDF form_url serves. */
export const uspsLiveManifest = {
  ...manifest,
  carrier: 'usps',
  total_postage: { amount: '7.94', currency: 'USD' },
  carrier_manifest: 'submitted',
  carrier_forms: [{ kind: 'usps_scan_form', number: '9275000000000000000001', shipment_ids: [ids.shipment], tracking_count: 1 }],
  mode: 'live',
};

/** A live UPS manifest: UPS's drivers need no end-of-day form, so UPS is asked nothing and form_url is shipd's summary. */
export const upsLiveManifest = {
  ...manifest,
  id: ids.upsLiveManifest,
  form_url: `${files}/${ids.upsLiveManifest}.pdf?token=1796076165.p8Wm2QeT5nYc1LrX7vBz3KdA9sHf0JgU4iOw6EtNqRk`,
  carrier_manifest: 'not_required',
  mode: 'live',
  created_at: '2026-11-23T22:02:45.208Z',
};

/**
 * A live FedEx manifest of two FedEx Ground labels, closed with FedEx's Ground End of Day Close; the close is known by
 * the shipping cycle FedEx's report gives, and form_url serves shipd's summary followed by FedEx's manifest report.
 */
export const fedexGroundCloseManifest = {
  ...manifest,
  id: ids.fedexManifest,
  carrier: 'fedex',
  shipment_ids: ids.fedexGroundShipments,
  shipment_count: 2,
  total_weight: { value: 7, unit: 'lb' },
  total_postage: { amount: '31.48', currency: 'USD' },
  form_url: `${files}/${ids.fedexManifest}.pdf?token=1796076259.Vq0dJ3s8hYk2bPq1mZr4Lw9xTnC7eAaF5uGiOyS6jKo`,
  carrier_manifest: 'submitted',
  carrier_forms: [{ kind: 'fedex_ground_close', number: '1187', shipment_ids: ids.fedexGroundShipments, tracking_count: 2 }],
  mode: 'live',
  created_at: '2026-11-23T22:04:19.623Z',
};

export const pickupCreate = { carrier: 'ups', ship_from_id: ids.location, date: '2026-11-24', window: { start: '13:00', end: '17:00' }, shipment_ids: [ids.shipment], instructions: 'Dock 3, ring the bell' };

export const pickup = {
  id: ids.pickup,
  object: 'pickup',
  status: 'scheduled',
  carrier: 'ups',
  confirmation_number: '285UNR8L4IB',
  ship_from_id: ids.location,
  address: { ...shipFrom, country: 'US' },
  date: '2026-11-24',
  window: { start: '13:00', end: '17:00' },
  shipment_ids: [ids.shipment],
  instructions: 'Dock 3, ring the bell',
  parcel_count: 1,
  total_weight: { value: 2.5, unit: 'lb' },
  price: null,
  mode: 'test',
  created_at: '2026-11-23T16:10:41.377Z',
  cancelled_at: null,
};

/** A live UPS on-call pickup: UPS's PRN, and the price UPS quoted, charged to the account's payment method. */
export const livePickup = {
  ...pickup,
  id: ids.livePickup,
  confirmation_number: '2929AL4M0DT',
  shipment_ids: [],
  instructions: null,
  parcel_count: 3,
  total_weight: { value: 12.5, unit: 'lb' },
  price: { amount: '8.95', currency: 'USD' },
  mode: 'live',
  created_at: '2026-11-23T16:25:13.846Z',
};

export const pickupAvailabilityQuery = { carrier: 'fedex', ship_from_id: ids.location, date: '2026-11-24' };

export const pickupAvailability = {
  object: 'pickup_availability',
  carrier: 'fedex',
  date: '2026-11-24',
  available: true,
  earliest: '08:00',
  latest: '20:00',
  book_by: '18:00',
  reason: null,
};

export const problem = {
  type: 'http://localhost:8080/problems/validation_failed',
  title: 'The request is not valid',
  status: 400,
  detail: '/ship_to/zip must match pattern "^[0-9]{5}(-?[0-9]{4})?$"',
  code: 'validation_failed',
  request_id: 'req_c1e7774048fe408b8d5b6950707d1c09',
  errors: [{ in: 'body', pointer: '/ship_to/zip', detail: 'must match pattern "^[0-9]{5}(-?[0-9]{4})?$"' }],
};
