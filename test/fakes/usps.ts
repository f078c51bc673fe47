import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { s10TrackingNumber, testUspsMailerId, uspsS10Indicators, uspsServiceTypeCodes, uspsTrackingNumber } from '../../src/carriers/tracking-numbers.ts';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts, contractViolations } from '../contracts/check.ts';
import { AddressQuery } from '../contracts/usps/addresses.ts';
import { InternationalLabelRequest, internationalExtraServiceFaults } from '../contracts/usps/international-labels.ts';
import { InternationalRateListQuery, TotalRatesQuery, totalRatesFaults } from '../contracts/usps/international-prices.ts';
import { CancelHeaders, CancelPath, LabelHeaders, LabelRequest, labelExtraServiceFaults, ReturnLabelRequest } from '../contracts/usps/labels.ts';
import { ClientCredentialsRequest } from '../contracts/usps/oauth.ts';
import { PaymentAuthorizationRequest } from '../contracts/usps/payments.ts';
import { DomesticOptionsRequest, priceExtraServiceFaults } from '../contracts/usps/shipping-options.ts';
import { TrackingBatchRequest, TrackingPath, TrackingQuery } from '../contracts/usps/tracking.ts';
import { TrackingNotification, TrackingSubscriptionRequest } from '../contracts/usps/subscriptions-tracking.ts';
import { jsonOrText, readText, recordedCall, sendJson, serve, type RecordedCall } from './server.ts';
import { labelPdf, labelPng } from './label-files.ts';
import { scanFormRoute, type ScanFormFake } from './usps-scan-form.ts';
import { pickupRoutes, type PickupFake } from './usps-pickup.ts';
import { holdsForPickup, locationsRoute } from './usps-locations.ts';

// A USPS v3 REST API on 127.0.0.1, speaking the published shapes of carriers.md 3 and the fake-server notes of
// carriers.md 8: credentials in the token request body only, numeric expires_in, the {apiVersion, error{…}} envelope,
// labels as multipart or as application/vnd.usps.labels+json, X-Payment-Authorization-Token required,
// X-Idempotency-Key honoured, cancel CANCELED before the manifest and DISPUTED after, tracking with string booleans.
// Every request is first held against our schemas of the published contracts (test/contracts/usps/), the same ones
// the contract tests use, and a request that breaks one is refused with a 400 in the USPS error envelope, as USPS's
// own OpenAPI validation does.

/** The mailer's CRID and the Mailer ID its label ranges (and so the fake's tracking numbers) belong to. */
export const fakeUspsCredentials = { clientId: 'usps-fake-client', clientSecret: 'usps-fake-secret', accountNumber: '1000123456', crid: '56781234', mid: testUspsMailerId };

export type UspsFailureShape = 'envelope' | 'http500' | 'slow' | 'malformed' | 'rate_limited';
export type UspsScanStage = 'accepted' | 'in_transit' | 'out_for_delivery' | 'delivered';

export interface UspsFake {
  url: string;
  close(): Promise<void>;
  calls: RecordedCall[];
  tokenRequests: number;
  paymentRequests: number;
  /** The next API call answers 401 with the USPS envelope and every token issued so far stops working. */
  expireTokens(): void;
  /** The next API call (not the token endpoint) fails this way. */
  failNext: UspsFailureShape | null;
  /** How long a `slow` answer waits. */
  slowMs: number;
  /** Blocks USPS documents as arrays come as single objects (rate options and tracking events). */
  singleObjects: boolean;
  /** After the day's manifest a cancel becomes a refund request (DISPUTED). */
  manifested: boolean;
  /** Moves a sold label's tracking along; a scanned label can no longer be refunded. */
  scan(trackingNumber: string, stage: UspsScanStage): void;
  /** Scans a label before its tracking shows it: the cancel refuses it while tracking still reads it as a label. */
  scanUntracked(trackingNumber: string, stage: UspsScanStage): void;
  /** A label another mailer bought, at this stage: tracking finds it as any other. */
  addParcel(trackingNumber: string, stage: UspsScanStage | 'created'): void;
  /** What became of a sold label's cancel: CANCELED, DISPUTED (a refund request), or null while it stands. */
  cancelOf(trackingNumber: string): 'CANCELED' | 'DISPUTED' | null;
  /** Labels come back as this image type whatever was asked (USPS answering a PNG to a PDF purchase). */
  imageOverride: 'PDF' | 'PNG' | 'ZPL203DPI' | null;
  /** Every contract violation refused so far, for tests to show a request kept the contract. */
  violations: string[];
  /** Sells this many more labels, then refuses the next one (a 400, as USPS refuses a label it will not sell); null never. */
  refuseLabelAfter: number | null;
  /** How long each rate search takes to answer, so that searches sent together overlap. */
  rateDelayMs: number;
  /** The most rate searches that were in the fake at the same moment, to show an adapter's searches are bounded. */
  mostRatesAtOnce: number;
  /** The SCAN forms made (usps-scan-form.ts). */
  scanForms: ScanFormFake;
  /** The Carrier Pickup API's bookings and the ZIP Codes it does not serve (usps-pickup.ts). */
  pickups: PickupFake;
  /** Tracking subscriptions made, by tracking number (TrackingNumberFilter): the listener, its secret and the id given. */
  subscriptions: Map<string, { subscriptionId: string; listenerURL: string; secret: string }>;
  /** The subscriptions deleted (DELETE /subscriptions/{subscriptionId}), by id, in order. */
  unsubscribed: string[];
  /**
   * Posts a tracking notification about a subscribed number to its listener, as USPS does: the payload is the
   * tracking details with these events (as GET /tracking/v3 DETAIL has them) as a JSON string, and X-HMAC is
   * Base64(HMAC-SHA256(secret, timestamp + payload)) with the subscription's secret, or the `secret` given here
   * (null sends no X-HMAC). Answers shipd's status and body.
   */
  pushEvents(trackingNumber: string, events: UspsPushedEvent[], options?: { secret?: string | null; statusCategory?: string }): Promise<{ status: number; text: string }>;
}

/** One tracking event as a notification's payload carries it. */
export interface UspsPushedEvent {
  at: Date;
  code: string;
  type: string;
  city: string;
  state: string;
  zip: string;
}

interface SoldLabel {
  trackingNumber: string;
  mailClass: string;
  toZip: string;
  stage: UspsScanStage | 'created';
  /** What tracking shows, which can lag the scan. */
  tracked: UspsScanStage | 'created';
  cancel: 'CANCELED' | 'DISPUTED' | null;
  /** A domestic label's mailingDate and origin ZIP, which its SCAN form must match. */
  mailingDate?: string;
  fromZip?: string;
}

const classes: Record<string, { days: number; base: number; perLb: number; name: string }> = {
  USPS_GROUND_ADVANTAGE: { days: 5, base: 5.4, perLb: 0.9, name: '5 Days' },
  PRIORITY_MAIL: { days: 2, base: 9.25, perLb: 1.6, name: '2 Days' },
  PRIORITY_MAIL_EXPRESS: { days: 1, base: 30.45, perLb: 3.1, name: '1-Day' },
  MEDIA_MAIL: { days: 8, base: 4.13, perLb: 0.75, name: '8 Days' },
};

/** The return class of each class, priced like it (shipping-options.yaml 3.1.29 DomesticMailClass). */
const returnClasses: Record<string, string> = {
  USPS_GROUND_ADVANTAGE_RETURN_SERVICE: 'USPS_GROUND_ADVANTAGE',
  PRIORITY_MAIL_RETURN_SERVICE: 'PRIORITY_MAIL',
  PRIORITY_MAIL_EXPRESS_RETURN_SERVICE: 'PRIORITY_MAIL_EXPRESS',
};
const outboundOf = (mailClass: string): string => returnClasses[mailClass] ?? mailClass;

/** USPS's nonstandard length fee beside the postage, as in the spec's example rate ("Nonstandard Length > 22"). */
function feesFor(length: number): { name: string; price: number; SKU: string }[] {
  return length > 22 ? [{ name: 'Nonstandard Length > 22', price: 4.0, SKU: 'D811XVCXXXX0000' }] : [];
}
/** The fake's insurance fee, its own figure as its postage is: $1.55 for each $100 (or part of $100) insured. */
const insuranceFee = (value: number): number => Math.round(Math.ceil(value / 100) * 155) / 100;

/**
 * The extra services the fake prices, by code, with the spec's names (ExtraService) and prices of its own, as its
 * postage is. A code the schema takes but this table lacks is not priced, as USPS leaves out what a class does not
 * offer; 920, USPS Tracking, comes at no charge, as in the Labels spec's example answer.
 */
export const fakeExtraServices: Readonly<Record<number, { name: string; SKU: string; price: number }>> = {
  920: { name: 'USPS Tracking', SKU: 'DXTP0EXXXCX0000', price: 0 },
  921: { name: 'Signature Confirmation', SKU: 'DXSX0EXXXCX0000', price: 3.95 },
  922: { name: 'Adult Signature Required 21 or Over', SKU: 'DXAX0EXXXCX0000', price: 8.8 },
  981: { name: 'Signature Requested', SKU: 'DXSR0EXXXCX0000', price: 1.25 },
  819: { name: 'HAZMAT Class 9 - Dry Ice Package', SKU: 'DXHZ0EXXXCX0819', price: 2.5 },
  820: { name: 'HAZMAT Class 9 - Lithium batteries, unmarked package', SKU: 'DXHZ0EXXXCX0820', price: 1.75 },
  831: { name: 'HAZMAT LTD QTY Ground Package', SKU: 'DXHZ0EXXXCX0831', price: 1.5 },
};

/** The priced entries of an answer's extraServices for the codes asked (insurance apart, insuranceEntry). */
function optionEntries(codes: unknown): { name: string; SKU: string; price: number; extraService: string }[] {
  return (Array.isArray(codes) ? (codes as number[]) : []).flatMap((c) => (fakeExtraServices[c] ? [{ ...fakeExtraServices[c], extraService: String(c) }] : []));
}

/**
 * The insurance entry of an answer's extraServices, as the specs' examples write one ({name, SKU, price}, and the
 * code as a string in the options search). A label's 930 above $500 comes back as 931: USPS replaces it
 * (domestic-labels.yaml 3.9.13, extraServices).
 */
function insuranceEntry(codes: unknown, value: unknown): { name: string; SKU: string; price: number; extraService: string } | undefined {
  const asked = Array.isArray(codes) ? codes.find((c) => c === 930 || c === 931) : undefined;
  if (asked === undefined || typeof value !== 'number') return undefined;
  const code = asked === 930 && value > 500 ? 931 : asked;
  return { name: code === 931 ? 'Insurance > $500' : 'Insurance <= $500', SKU: code === 931 ? 'DXIX0XXXXCX0600' : 'DXIX0XXXXCX0100', price: insuranceFee(value), extraService: String(code) };
}

/**
 * The fake's prices abroad, its own figures: a base and a price by pound per class, COMMERCIAL 10% below RETAIL, the
 * label charged at the COMMERCIAL price as USPS charges an account. First-Class Package International Service goes to
 * 4 lb and is not insured (the two Priority classes take 930 and 931, as test mode has it: sim/international/extras.ts).
 */
const classesAbroad = [
  { mailClass: 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL', base: 48.5, perLb: 5.9, insured: true, maxLb: 70 },
  { mailClass: 'PRIORITY_MAIL_INTERNATIONAL', base: 36.2, perLb: 4.4, insured: true, maxLb: 70 },
  { mailClass: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', base: 16.1, perLb: 6.8, insured: false, maxLb: 4 },
] as const;
const priceAbroad = (c: (typeof classesAbroad)[number], weight: number, commercial: boolean): number => Math.round((c.base + c.perLb * Math.ceil(weight)) * (commercial ? 90 : 100)) / 100;

/** The insurance entry of an international answer, by the code asked: its price for the value, or none where the class takes none. */
function insuranceAbroad(c: (typeof classesAbroad)[number], codes: unknown, value: unknown): { code: number; name: string; SKU: string; price: number } | undefined {
  const code = Array.isArray(codes) ? codes.find((x) => x === 930 || x === 931) : undefined;
  if (code === undefined || typeof value !== 'number' || !c.insured) return undefined;
  return { code, name: code === 931 ? 'Insurance > $500' : 'Insurance <= $500', SKU: code === 931 ? 'IXIX0XXXXCX0600' : 'IXIX0XXXXCX0100', price: insuranceFee(value) };
}

const categoryFor = (length: number, weight: number): string => (length > 22 || weight > 25 ? 'NONSTANDARD' : 'MACHINABLE');

const scanStages: UspsScanStage[] = ['accepted', 'in_transit', 'out_for_delivery', 'delivered'];

/** Events per stage, oldest first; the fake answers them newest first, as USPS does. */
const timeline: { stage: UspsScanStage | 'created'; code: string; type: string; city: string; state: string; zip: string }[] = [
  { stage: 'created', code: 'GX', type: 'Shipping Label Created, USPS Awaiting Item', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' },
  { stage: 'accepted', code: '03', type: 'USPS in possession of item', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' },
  { stage: 'in_transit', code: '10', type: 'Arrived at USPS Regional Origin Facility', city: 'OAKLAND CA DISTRIBUTION CENTER', state: 'CA', zip: '94615' },
  { stage: 'in_transit', code: 'T1', type: 'Departed USPS Regional Facility', city: 'OAKLAND CA DISTRIBUTION CENTER', state: 'CA', zip: '94615' },
  { stage: 'out_for_delivery', code: 'OF', type: 'Out for Delivery', city: 'NEW YORK', state: 'NY', zip: '10001' },
  { stage: 'delivered', code: '01', type: 'Delivered, In/At Mailbox', city: 'NEW YORK', state: 'NY', zip: '10001' },
];

const categories: Record<UspsScanStage | 'created', string> = {
  created: 'Pre-Shipment',
  accepted: 'Accepted',
  in_transit: 'In Transit',
  out_for_delivery: 'Out for Delivery',
  delivered: 'Delivered',
};

const labelBytes: Record<string, (tn: string, zip: string) => Buffer> = {
  PDF: (tn) => labelPdf(`USPS label ${tn}`),
  ZPL203DPI: (tn, zip) => Buffer.from(`^XA^FO50,50^BCN,100,Y,N,N^FD420${zip}${tn}^FS^XZ`),
  ZPL300DPI: (tn, zip) => Buffer.from(`^XA^FO74,74^BCN,148,Y,N,N^FD420${zip}${tn}^FS^XZ`),
  PNG: () => labelPng(),
};

function envelope(api: string, status: number, message: string, errors: { code: string; detail: string; parameter?: string }[] = []) {
  return {
    apiVersion: api,
    error: {
      code: String(status),
      message,
      errors: errors.map((e) => ({ status: String(status), code: e.code, title: message, detail: e.detail, ...(e.parameter ? { source: { parameter: e.parameter, example: '' } } : {}) })),
    },
  };
}

/** A refusal for broken contract terms, one error per fault, as USPS's request validation answers. */
function contractRefusal(api: string, faults: string[]) {
  return envelope(api, 400, 'Bad Request', faults.map((f) => ({ code: 'OASValidation', detail: f, parameter: f.split(' ')[0]!.replace(/^\//, '').replace(/\//g, '.') || 'body' })));
}

function addDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function readBody(req: IncomingMessage): Promise<{ raw: string; parsed: unknown }> {
  const raw = await readText(req);
  const form = raw !== '' && String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
  return { raw, parsed: form ? Object.fromEntries(new URLSearchParams(raw)) : jsonOrText(raw) };
}

const get = (v: unknown, key: string): unknown => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

export async function startUspsFake(): Promise<UspsFake> {
  compileContracts([TrackingSubscriptionRequest, TrackingNotification, AddressQuery, CancelHeaders, CancelPath, LabelHeaders, LabelRequest, ReturnLabelRequest, InternationalLabelRequest, InternationalRateListQuery, TotalRatesQuery, ClientCredentialsRequest, PaymentAuthorizationRequest, DomesticOptionsRequest, TrackingPath, TrackingQuery, TrackingBatchRequest]);
  const tokens = new Set<string>();
  /** The scopes each token was issued for: the Locations API is only for a token with its `locations` scope. */
  const scopes = new Map<string, string[]>();
  const payments = new Set<string>();
  const labels = new Map<string, SoldLabel>();
  const byIdempotencyKey = new Map<string, { key: string; body: string; answer: Record<string, unknown> }>();
  let expireNext = false;
  let issued = 0;
  const scanForms = scanFormRoute(
    (tn) => {
      const l = labels.get(tn);
      return l?.mailingDate && l.fromZip ? { mailingDate: l.mailingDate, fromZip: l.fromZip, cancelled: l.cancel !== null } : undefined;
    },
    refused,
    (res, api, code, detail, parameter) => sendJson(res, 400, envelope(api, 400, 'Bad Request', [{ code, detail, parameter }])),
  );
  const pickups = pickupRoutes(refused, (res, api, code, detail, parameter) => sendJson(res, 400, envelope(api, 400, 'Bad Request', [{ code, detail, parameter }])));
  const locations = locationsRoute(refused, (res, api, code, detail, parameter) => sendJson(res, 400, envelope(api, 400, 'Invalid Address Information', [{ code, detail, parameter }])));

  const fake: Omit<UspsFake, 'url' | 'close'> = {
    calls: [],
    tokenRequests: 0,
    paymentRequests: 0,
    expireTokens: () => {
      expireNext = true;
    },
    failNext: null,
    slowMs: 2000,
    singleObjects: false,
    manifested: false,
    imageOverride: null,
    violations: [],
    refuseLabelAfter: null,
    rateDelayMs: 0,
    mostRatesAtOnce: 0,
    scanForms: scanForms.state,
    pickups: pickups.state,
    subscriptions: new Map(),
    unsubscribed: [],
    pushEvents: async (trackingNumber, events, options = {}) => {
      const sub = fake.subscriptions.get(trackingNumber);
      if (!sub) throw new Error(`the USPS fake has no tracking subscription for ${trackingNumber}`);
      const trackingEvents = [...events]
        .sort((a, b) => b.at.getTime() - a.at.getTime())
        .map((e) => ({
          eventType: e.type,
          eventCode: e.code,
          eventTimestamp: new Date(e.at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19),
          GMTTimestamp: `${e.at.toISOString().slice(0, 19)}Z`,
          GMTOffset: '-5:00',
          eventCity: e.city,
          eventState: e.state,
          eventZIPCode: e.zip,
          eventCountry: 'US',
        }));
      const latest = trackingEvents[0];
      const payload = JSON.stringify({
        trackingNumber,
        mailClass: 'Priority Mail<SUP>&reg;</SUP>',
        mailClassCode: 'PM',
        status: latest?.eventType ?? '',
        ...(options.statusCategory && { statusCategory: options.statusCategory }),
        statusSummary: `Your item's status: ${latest?.eventType ?? 'unknown'}.`,
        trackingEvents,
      });
      const body = { subscriptionId: sub.subscriptionId, subscriptionType: 'Tracking Subscription', timestamp: new Date().toISOString(), payload };
      const faults = contractViolations(TrackingNotification, body);
      if (faults.length > 0) throw new Error(`the USPS fake's notification breaks scanEventEx: ${faults.join('; ')}`);
      const secret = options.secret === undefined ? sub.secret : options.secret;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (secret !== null) headers['x-hmac'] = createHmac('sha256', secret).update(body.timestamp + body.payload).digest('base64');
      const res = await fetch(sub.listenerURL, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    },
    scan: (tn, stage) => {
      const label = labels.get(tn);
      if (!label) throw new Error(`the USPS fake sold no label ${tn}`);
      label.stage = stage;
      label.tracked = stage;
    },
    scanUntracked: (tn, stage) => {
      const label = labels.get(tn);
      if (!label) throw new Error(`the USPS fake sold no label ${tn}`);
      label.stage = stage;
    },
    addParcel: (tn, stage) => {
      labels.set(tn, { trackingNumber: tn, mailClass: 'USPS_GROUND_ADVANTAGE', toZip: '10001', stage, tracked: stage, cancel: null });
    },
    cancelOf: (tn) => {
      const label = labels.get(tn);
      if (!label) throw new Error(`the USPS fake sold no label ${tn}`);
      return label.cancel;
    },
  };

  /** The faults of a request against one contract, recorded; true when there were any and the answer is sent. */
  function refused(res: ServerResponse, api: string, checks: [TSchema, unknown][], rules: () => string[] = () => []): boolean {
    const broken = checks.flatMap(([schema, value]) => contractViolations(schema, value));
    // The spec's rules across fields are judged on a request that keeps the schema.
    const faults = broken.length > 0 ? broken : rules();
    if (faults.length === 0) return false;
    fake.violations.push(...faults);
    sendJson(res, 400, contractRefusal(api, faults));
    return true;
  }

  function token(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    fake.tokenRequests++;
    const form = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (!form.client_id && String(req.headers.authorization ?? '').startsWith('Basic ')) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'client_id and client_secret are required in the request body' });
      return;
    }
    const faults = contractViolations(ClientCredentialsRequest, form);
    if (faults.length > 0 && form.grant_type === 'client_credentials') {
      fake.violations.push(...faults);
      sendJson(res, 400, { error: 'invalid_request', error_description: faults.join('; ') });
      return;
    }
    if (form.grant_type !== 'client_credentials') {
      sendJson(res, 400, { error: 'unsupported_grant_type', error_description: `grant_type ${String(form.grant_type)} is not supported` });
      return;
    }
    if (form.client_id !== fakeUspsCredentials.clientId || form.client_secret !== fakeUspsCredentials.clientSecret) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      return;
    }
    const value = `usps-access-${++issued}`;
    tokens.add(value);
    scopes.set(value, String(form.scope ?? '').split(/\s+/));
    sendJson(res, 200, {
      access_token: value,
      token_type: 'Bearer',
      issued_at: Date.now(),
      expires_in: 28799,
      status: 'approved',
      scope: String(form.scope ?? 'addresses prices labels tracking shipments payments'),
      issuer: 'api.usps.com',
      client_id: form.client_id,
      application_name: 'shipd',
      api_products: '[Shipping-Public]',
      public_key: 'LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0=',
    });
  }

  function rates(res: ServerResponse, body: unknown): void {
    const pkg = get(body, 'packageDescription');
    if (refused(res, '/shipments/v3', [[DomesticOptionsRequest, body]], () => priceExtraServiceFaults(pkg as Record<string, unknown>))) return;
    const insured = insuranceEntry(get(pkg, 'extraServices'), get(pkg, 'packageValue'));
    const extras = [...optionEntries(get(pkg, 'extraServices')), ...(insured ? [insured] : [])];
    const asked = Array.isArray(get(pkg, 'extraServices')) && (get(pkg, 'extraServices') as unknown[]).length > 0;
    const weight = get(pkg, 'weight') as number;
    const length = get(pkg, 'length') as number;
    const dest = get(body, 'destinationZIPCode');
    if (dest === '00000') {
      sendJson(res, 400, envelope('/shipments/v3', 400, 'Bad Request', [{ code: '030004', detail: 'The destination ZIP Code is invalid.', parameter: 'destinationZIPCode' }]));
      return;
    }
    if (weight > 70) {
      sendJson(res, 400, envelope('/shipments/v3', 400, 'Bad Request', [{ code: '030011', detail: 'Weight must be 70 pounds or less.', parameter: 'packageDescription.weight' }]));
      return;
    }
    const returns = get(pkg, 'mailClass') === 'ALL_RETURNS';
    const mailingDate = String(get(pkg, 'mailingDate') ?? '2025-01-06');
    const fees = feesFor(length);
    const category = get(pkg, 'hasNonstandardCharacteristics') === true ? 'NONSTANDARD' : categoryFor(length, weight);
    const option = (priceType: string, mailClass: string, indicator: string, price: number, processingCategory = category) => {
      const c = classes[outboundOf(mailClass)]!;
      const charged = indicator === 'SP' ? fees : [];
      const rate = { SKU: `DPXX0XXXXX${indicator}`, description: `${mailClass} ${indicator}`, priceType, price, weight, dimWeight: 0, fees: charged, startDate: '2025-01-01', endDate: '', mailClass, zone: '08', productName: mailClass, processingCategory, rateIndicator: indicator, destinationEntryFacilityType: 'NONE', warnings: [] };
      return {
        // Return classes come without a commitment (shipping-options.yaml 3.1.29, "For deliveries with return mail classes, there are no commitments").
        ...(returns ? {} : { commitment: { name: c.name, expectedDeliveryDate: addDays(mailingDate, c.days), guaranteedDelivery: mailClass === 'PRIORITY_MAIL_EXPRESS', isPriorityMailNextDay: false } }),
        totalBasePrice: Math.round((price + charged.reduce((sum, f) => sum + f.price, 0)) * 100) / 100,
        // "Only returned when `extraServices` are passed in the request" (RateOptions.totalPrice).
        ...(asked ? { totalPrice: Math.round((price + charged.reduce((sum, f) => sum + f.price, 0) + extras.reduce((sum, e) => sum + e.price, 0)) * 100) / 100 } : {}),
        rates: fake.singleObjects ? rate : [rate],
        extraServices: extras.map((e) => ({ ...e, priceType })),
      };
    };
    const price = (priceType: string, mailClass: string) => {
      const c = classes[outboundOf(mailClass)]!;
      const list = c.base + c.perLb * Math.ceil(weight);
      return Math.round((priceType === 'RETAIL' ? list : list * 0.85) * 100) / 100;
    };
    const offered = returns ? Object.keys(returnClasses) : Object.keys(classes);
    const pricing = (priceType: string) => ({
      priceType,
      shippingOptions: offered.map((mailClass) => ({
        mailClass,
        rateOptions: [
          option(priceType, mailClass, 'SP', price(priceType, mailClass)),
          // Cheaper products a parcel in its own box is not sold at: a flat-rate envelope, the APO/FPO large flat-rate
          // box, a cubic tier, and the single-piece rate of the other processing category.
          ...(outboundOf(mailClass) === 'PRIORITY_MAIL' ? [option(priceType, mailClass, 'FE', 1.0), option(priceType, mailClass, 'PM', 1.5), option(priceType, mailClass, 'CP', 2.0)] : []),
          option(priceType, mailClass, 'SP', 0.5, category === 'MACHINABLE' ? 'NONSTANDARD' : 'MACHINABLE'),
        ],
      })),
    });
    if (fake.singleObjects) {
      const only = pricing('COMMERCIAL');
      const pm = only.shippingOptions.find((s) => outboundOf(s.mailClass) === 'PRIORITY_MAIL')!;
      sendJson(res, 200, { pricingOptions: { priceType: 'COMMERCIAL', shippingOptions: { mailClass: pm.mailClass, rateOptions: pm.rateOptions[0] } } });
      return;
    }
    sendJson(res, 200, { originZIPCode: get(body, 'originZIPCode'), destinationZIPCode: dest, pricingOptions: [pricing('RETAIL'), pricing('COMMERCIAL')] });
  }

  function payment(res: ServerResponse, body: unknown): void {
    fake.paymentRequests++;
    if (refused(res, '/payments/v3', [[PaymentAuthorizationRequest, body]])) return;
    const roles = get(body, 'roles');
    const role = (name: string) => (Array.isArray(roles) ? roles.find((r) => get(r, 'roleName') === name) : undefined);
    const payer = role('PAYER');
    if (get(payer, 'accountNumber') !== fakeUspsCredentials.accountNumber || get(payer, 'CRID') !== fakeUspsCredentials.crid) {
      sendJson(res, 400, envelope('/payments/v3', 400, 'Bad Request', [{ code: '010001', detail: 'The PAYER role has no valid account.', parameter: 'roles' }]));
      return;
    }
    const owner = role('LABEL_OWNER');
    if (get(owner, 'CRID') !== fakeUspsCredentials.crid || get(owner, 'MID') !== fakeUspsCredentials.mid) {
      sendJson(res, 400, envelope('/payments/v3', 400, 'Bad Request', [{ code: '010002', detail: 'The LABEL_OWNER MID and CRID are not enrolled in USPS Ship.', parameter: 'roles' }]));
      return;
    }
    const value = `usps-payment-${fake.paymentRequests}`;
    payments.add(value);
    sendJson(res, 200, { paymentAuthorizationToken: value, roles });
  }

  function label(req: IncomingMessage, res: ServerResponse, body: unknown, raw: string, returns: boolean): void {
    if (!payments.has(String(req.headers['x-payment-authorization-token'] ?? ''))) {
      sendJson(res, 403, envelope('/labels/v3', 403, 'Forbidden', [{ code: '403', detail: 'A valid X-Payment-Authorization-Token header is required.' }]));
      return;
    }
    const pkg = get(body, 'packageDescription');
    if (refused(res, '/labels/v3', [[LabelHeaders, req.headers], [returns ? ReturnLabelRequest : LabelRequest, body]], () => labelExtraServiceFaults(pkg as Record<string, unknown>, !returns))) return;
    const key = String(req.headers['x-idempotency-key'] ?? '');
    const earlier = key ? byIdempotencyKey.get(key) : undefined;
    if (earlier && earlier.body === raw) {
      answerLabel(req, res, earlier.answer, returns);
      return;
    }
    const mailClass = String(get(pkg, 'mailClass') ?? '');
    const outbound = outboundOf(mailClass);
    const to = get(body, 'toAddress');
    if (!uspsServiceTypeCodes[outbound]) {
      sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: '020011', detail: `The mail class ${mailClass} is not offered by this fake.`, parameter: 'packageDescription.mailClass' }]));
      return;
    }
    // The Post Office must be one that holds parcels: the spec says no more of a facilityId than where to find one.
    if (get(to, 'holdForPickup') === true && !holdsForPickup(get(to, 'facilityId'))) {
      sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: '010120', detail: `The facility ${String(get(to, 'facilityId'))} is not a Post Office that offers Hold for Pickup.`, parameter: 'toAddress.facilityId' }]));
      return;
    }
    if (/nowhere/i.test(String(get(to, 'streetAddress')))) {
      sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: '010101', detail: 'The address requested is an invalid delivery address.', parameter: 'toAddress.streetAddress' }]));
      return;
    }
    if (fake.refuseLabelAfter !== null && fake.refuseLabelAfter-- <= 0) {
      fake.refuseLabelAfter = null;
      sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: '020012', detail: 'The label could not be created for this package.', parameter: 'packageDescription' }]));
      return;
    }
    const imageType = fake.imageOverride ?? String(get(get(body, 'imageInfo'), 'imageType') ?? 'PDF');
    const render = labelBytes[imageType];
    if (!render) {
      sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: 'OASValidation', detail: `imageType ${imageType} is not offered by this fake`, parameter: 'imageInfo.imageType' }]));
      return;
    }
    const seed = createHash('sha256').update(key || `unkeyed-${labels.size}`).digest();
    const serial = String(seed.readUInt32BE(0) % 10_000_000).padStart(7, '0');
    const trackingNumber = uspsTrackingNumber(uspsServiceTypeCodes[outbound]!, testUspsMailerId, serial);
    const toZip = String(get(to, 'ZIPCode'));
    const weight = Number(get(pkg, 'weight'));
    const c = classes[outbound]!;
    const postage = Math.round((c.base + c.perLb * Math.ceil(weight)) * 85) / 100;
    const mailingDate = String(get(pkg, 'mailingDate') ?? '2025-01-06');
    const insuredLabel = insuranceEntry(get(pkg, 'extraServices'), get(get(pkg, 'packageOptions'), 'packageValue'));
    const metadata = {
      labelAddress: { streetAddress: String(get(to, 'streetAddress')).toUpperCase(), city: String(get(to, 'city')).toUpperCase(), state: get(to, 'state'), ZIPCode: toZip },
      routingInformation: `420${toZip}`,
      trackingNumber,
      SKU: 'DPXX0XXXXC01020',
      postage,
      // The label's entries name and price each service, without its code (ExtraServiceResponse).
      extraServices: [...optionEntries(get(pkg, 'extraServices')), ...(insuredLabel ? [insuredLabel] : [])].map((e) => ({ name: e.name, SKU: e.SKU, price: e.price })),
      fees: feesFor(Number(get(pkg, 'length'))),
      zone: '08',
      weightUOM: 'lb',
      weight,
      dimensionalWeight: 0,
      bannerText: 'USPS TRACKING # USPS Ship',
      serviceTypeCode: uspsServiceTypeCodes[outbound],
      links: [{ rel: ['tracking'], href: `https://tools.usps.com/go/TrackConfirmAction_input?origTrackNum=${trackingNumber}` }],
      ...(returns ? {} : { constructCode: 'C01', commitment: { name: c.name, expectedDeliveryDate: addDays(mailingDate, c.days) } }),
    };
    const image = render(trackingNumber, toZip).toString('base64');
    // The JSON answers put the metadata at the top level (LabelVendorResponse, ReturnLabelVendorResponse).
    const answer = returns ? { ...metadata, returnLabelImage: image } : { ...metadata, labelImage: image };
    labels.set(trackingNumber, { trackingNumber, mailClass: outbound, toZip, stage: 'created', tracked: 'created', cancel: null, mailingDate, fromZip: String(get(get(body, 'fromAddress'), 'ZIPCode')) });
    if (key) byIdempotencyKey.set(key, { key, body: raw, answer });
    answerLabel(req, res, answer, returns);
  }

  /**
   * `POST /international-labels/v3/international-label`: the request held against InternationalLabelRequest, then
   * refused where USPS's rules go beyond the schema (IMM 250 and 520: First-Class Package International Service up
   * to 4 lb and $400 of contents; an item line over $2,500 cannot cite the 30.37(a) exemption). The answer is an
   * InternationalLabelVendorResponse: an S10 internationalTrackingNumber, postage and the label with its customs form.
   */
  function internationalLabel(req: IncomingMessage, res: ServerResponse, body: unknown, raw: string): void {
    const api = '/international-labels/v3';
    if (!payments.has(String(req.headers['x-payment-authorization-token'] ?? ''))) {
      sendJson(res, 403, envelope(api, 403, 'Forbidden', [{ code: '403', detail: 'A valid X-Payment-Authorization-Token header is required.' }]));
      return;
    }
    if (refused(res, api, [[LabelHeaders, req.headers], [InternationalLabelRequest, body]], () => internationalExtraServiceFaults(body as Parameters<typeof internationalExtraServiceFaults>[0]))) return;
    const key = String(req.headers['x-idempotency-key'] ?? '');
    const earlier = key ? byIdempotencyKey.get(key) : undefined;
    if (earlier && earlier.body === raw) return answerLabel(req, res, earlier.answer, false);
    const pkg = get(body, 'packageDescription');
    const mailClass = String(get(pkg, 'mailClass'));
    const weight = Number(get(pkg, 'weight'));
    const lines = [get(get(body, 'customsForm'), 'contents')].flat() as unknown[];
    const value = lines.reduce<number>((sum, l) => sum + Number(get(l, 'itemTotalValue')), 0);
    const bad = (code: string, detail: string, parameter: string) => sendJson(res, 400, envelope(api, 400, 'Bad Request', [{ code, detail, parameter }]));
    if (mailClass === 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE' && (weight > 4 || value > 400)) {
      return bad('020301', 'First-Class Package International Service is limited to 4 pounds and a value of $400.', 'packageDescription.weight');
    }
    if (lines.some((l) => Number(get(l, 'itemTotalValue')) > 2500) && /30\.37\s*\(a\)/i.test(String(get(get(body, 'customsForm'), 'AESITN')))) {
      return bad('020302', 'An item valued over $2,500 requires an ITN; the exemption 30.37(a) does not apply.', 'customsForm.AESITN');
    }
    const seed = createHash('sha256').update(key || `unkeyed-${labels.size}`).digest();
    const trackingNumber = s10TrackingNumber(uspsS10Indicators[mailClass]!, String(seed.readUInt32BE(0) % 100_000_000).padStart(8, '0'));
    const country = String(get(get(body, 'toAddress'), 'countryISOAlpha2Code')).toUpperCase();
    const imageType = fake.imageOverride ?? String(get(get(body, 'imageInfo'), 'imageType') ?? 'PDF');
    const render = labelBytes[imageType] ?? labelBytes.PDF!;
    const priced = classesAbroad.find((c) => c.mailClass === mailClass)!;
    const insured = insuranceAbroad(priced, get(pkg, 'extraServices'), get(get(pkg, 'packageOptions'), 'packageValue'));
    if (!insured && [get(pkg, 'extraServices')].flat().some((x) => x === 930 || x === 931)) {
      return bad('020303', `Insurance is not available for ${mailClass}.`, 'packageDescription.extraServices');
    }
    const answer = {
      labelAddress: get(body, 'toAddress'),
      internationalTrackingNumber: trackingNumber,
      constructCode: 'I01',
      SKU: 'PXXX0XXXXC00010',
      // "Amount of Postage Required, does not include insurance or other extra service fees", which are itemized.
      postage: priceAbroad(priced, weight, true),
      extraServices: insured ? [{ serviceID: String(insured.code), serviceName: insured.name, price: insured.price }] : [],
      internationalPriceGroup: country === 'CA' ? '1' : country === 'MX' ? '2' : '5',
      weightUOM: 'lb',
      weight,
      fees: [],
      labelImage: render(trackingNumber, country).toString('base64'),
    };
    labels.set(trackingNumber, { trackingNumber, mailClass, toZip: String(get(get(body, 'toAddress'), 'postalCode') ?? ''), stage: 'created', tracked: 'created', cancel: null });
    if (key) byIdempotencyKey.set(key, { key, body: raw, answer });
    answerLabel(req, res, answer, false);
  }

  /**
   * `POST /international-prices/v3/base-rates-list/search`, and `…/total-rates/search` (`total`) with the extra
   * services asked: the three mail classes abroad (First-Class Package International Service to 4 lb), a price by
   * pound, COMMERCIAL below RETAIL. The total search prices the insurance asked in each option's extraServices
   * (ExtraServiceRateDetails_inner: SKU, price, priceType, extraService, name) and states totalPrice, which "is only
   * returned when `extraServices` are passed"; a class that takes no insurance has no entry for it.
   */
  function internationalRates(res: ServerResponse, body: unknown, total: boolean): void {
    const api = '/international-prices/v3';
    if (total ? refused(res, api, [[TotalRatesQuery, body]], () => totalRatesFaults(body as Parameters<typeof totalRatesFaults>[0])) : refused(res, api, [[InternationalRateListQuery, body]])) return;
    const weight = Number(get(body, 'weight'));
    const commercial = get(body, 'priceType') === 'COMMERCIAL';
    const priceType = commercial ? 'COMMERCIAL' : 'RETAIL';
    const country = String(get(body, 'destinationCountryCode'));
    const asked = get(body, 'extraServices');
    const rateOptions = classesAbroad
      .filter((c) => weight <= c.maxLb)
      .map((c) => {
        const price = priceAbroad(c, weight, commercial);
        const option = { totalBasePrice: price, rates: [{ SKU: 'PXXX0XXXXC00010', description: c.mailClass, priceType, price, weight, dimWeight: 0, fees: [], mailClass: c.mailClass, zone: country === 'CA' ? '1' : '5', processingCategory: 'MACHINABLE', rateIndicator: 'SP', destinationEntryFacilityType: 'NONE' }] };
        if (!total || !Array.isArray(asked)) return option;
        const insured = insuranceAbroad(c, asked, get(body, 'itemValue'));
        const extraServices = insured ? [{ SKU: insured.SKU, price: insured.price, priceType, extraService: insured.code, name: insured.name }] : [];
        return { ...option, extraServices, totalPrice: Math.round((price + (insured?.price ?? 0)) * 100) / 100 };
      });
    sendJson(res, 200, { rateOptions });
  }

  /** JSON when asked for application/vnd.usps.labels+json; otherwise the default multipart form. */
  function answerLabel(req: IncomingMessage, res: ServerResponse, answer: Record<string, unknown>, returns: boolean): void {
    if (String(req.headers.accept ?? '').includes('application/vnd.usps.labels+json')) {
      sendJson(res, 200, answer, { 'content-type': 'application/vnd.usps.labels+json' });
      return;
    }
    const boundary = 'usps-fake-boundary';
    const part = (name: string, type: string, content: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`;
    res.writeHead(200, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    // The image part is base64 text whatever its header says, as the spec warns.
    const { labelImage, returnLabelImage, ...metadata } = answer;
    const [metaPart, imagePart] = returns ? ['returnLabelMetadata', 'returnLabelImage'] : ['labelMetadata', 'labelImage'];
    res.end(part(metaPart, 'application/json', JSON.stringify(metadata)) + part(imagePart, 'application/pdf', String(labelImage ?? returnLabelImage)) + `--${boundary}--\r\n`);
  }

  function cancel(req: IncomingMessage, res: ServerResponse, trackingNumber: string): void {
    if (!payments.has(String(req.headers['x-payment-authorization-token'] ?? ''))) {
      sendJson(res, 403, envelope('/labels/v3', 403, 'Forbidden', [{ code: '403', detail: 'A valid X-Payment-Authorization-Token header is required.' }]));
      return;
    }
    if (refused(res, '/labels/v3', [[CancelHeaders, req.headers], [CancelPath, { trackingNumber }]])) return;
    const label = labels.get(trackingNumber);
    const refusal = (detail: string) => sendJson(res, 400, envelope('/labels/v3', 400, 'Bad Request', [{ code: '020500', detail, parameter: 'trackingNumber' }]));
    if (!label || label.cancel === 'CANCELED') return refusal('Order not found');
    if (label.cancel === 'DISPUTED') return refusal('A refund request for this order has already been submitted today');
    if (label.stage !== 'created') return refusal('A refund request for this order cannot be submitted');
    if (fake.manifested) {
      label.cancel = 'DISPUTED';
      sendJson(res, 200, { trackingNumber, status: 'DISPUTED', disputeId: String(103789 + labels.size) });
      return;
    }
    label.cancel = 'CANCELED';
    sendJson(res, 200, { trackingNumber, status: 'CANCELED' });
  }

  function tracking(res: ServerResponse, trackingNumber: string, query: URLSearchParams): void {
    if (refused(res, '/tracking/v3', [[TrackingPath, { trackingNumber }], [TrackingQuery, Object.fromEntries(query)]])) return;
    const label = labels.get(trackingNumber);
    if (!label) {
      sendJson(res, 404, envelope('/tracking/v3', 404, 'Not Found', [{ code: '1001', detail: notYet(trackingNumber), parameter: 'trackingNumber' }]));
      return;
    }
    sendJson(res, 200, trackingDetail(label, query.get('expand') === 'DETAIL'));
  }

  const notYet = (trackingNumber: string) => `A status update is not yet available on your package (${trackingNumber}).`;

  /** A label's tracking detail as tracking v3 writes it (v3r2 renames a few fields: trackingBatch). */
  function trackingDetail(label: SoldLabel, withEvents: boolean): Record<string, unknown> {
    const { trackingNumber } = label;
    const reached = label.tracked === 'created' ? 0 : scanStages.indexOf(label.tracked) + 1;
    const order: (UspsScanStage | 'created')[] = ['created', ...scanStages];
    const start = Date.UTC(2025, 0, 6, 15, 0, 0);
    const events = timeline
      .filter((e) => order.indexOf(e.stage) <= reached)
      .map((e, i) => {
        const gmt = new Date(start + i * 5 * 3600_000);
        const local = new Date(gmt.getTime() - 5 * 3600_000).toISOString().slice(0, 19);
        return {
          eventType: e.type, eventCode: e.code, eventTimestamp: local, GMTTimestamp: `${gmt.toISOString().slice(0, 19)}Z`, GMTOffset: '-05:00',
          eventCity: e.city, eventState: e.state, eventZIP: e.zip, eventCountry: '', firm: '', name: '', authorizedAgent: 'false', actionCode: '', reasonCode: '',
        };
      })
      .reverse();
    const latest = events[0]!;
    const detail = withEvents ? { trackingEvents: fake.singleObjects ? latest : events } : {};
    return {
      trackingNumber,
      mailClass: label.mailClass === 'USPS_GROUND_ADVANTAGE' ? 'USPS Ground Advantage<SUP>&#153;</SUP>' : 'Priority Mail<SUP>&#174;</SUP>',
      mailType: 'DOMESTIC_MAIL',
      originCity: 'SAN FRANCISCO', originState: 'CA', originZIP: '94105',
      destinationCity: 'NEW YORK', destinationState: 'NY', destinationZIP: label.toZip,
      emailEnabled: 'true',
      status: latest.eventType,
      statusCategory: categories[label.tracked],
      statusSummary: `Your item's status: ${latest.eventType}.`,
      ...(label.tracked === 'delivered' ? {} : { expectedDeliveryTimeStamp: '2025-01-09T00:00:00' }),
      serviceTypeCode: uspsServiceTypeCodes[label.mailClass],
      ...detail,
    };
  }

  /**
   * Tracking v3r2's POST of several numbers: 200 with every detail when each number is known, else 207 with a
   * SuccessResponse (statusCode "200") or FailureResponse (statusCode "404") per number. Its details carry the v3r2
   * names: eventZIPCode, destinationZIPCode, and deliveryDateExpectation.expectedDeliveryDate.
   */
  function trackingBatch(res: ServerResponse, body: unknown): void {
    if (refused(res, '/tracking/v3r2', [[TrackingBatchRequest, body]])) return;
    const asked = (body as { trackingNumber: string }[]).map((b) => b.trackingNumber);
    const items = asked.map((n) => {
      const label = labels.get(n);
      if (!label) return { statusCode: '404', trackingNumber: n, ...envelope('/tracking/v3r2', 404, 'Not Found', [{ code: '1001', detail: notYet(n), parameter: 'trackingNumber' }]) };
      const { destinationZIP, expectedDeliveryTimeStamp, trackingEvents, ...v3 } = trackingDetail(label, true) as Record<string, unknown> & { trackingEvents: unknown };
      const events = [trackingEvents].flat().map((e) => {
        const { eventZIP, ...rest } = e as Record<string, unknown>;
        return { ...rest, eventZIPCode: eventZIP };
      });
      const expected = typeof expectedDeliveryTimeStamp === 'string' ? { deliveryDateExpectation: { expectedDeliveryDate: expectedDeliveryTimeStamp.slice(0, 10) } } : {};
      return { statusCode: '200', ...v3, destinationZIPCode: destinationZIP, ...expected, trackingEvents: events };
    });
    if (items.every((i) => i.statusCode === '200')) return sendJson(res, 200, items.map(({ statusCode: _, ...detail }) => detail));
    sendJson(res, 207, items);
  }

  /** A tracking-number subscription: 201 with the subscription as USPS keeps it (the secret is not sent back). */
  function subscribe(res: ServerResponse, body: unknown): void {
    if (refused(res, '/subscriptions-tracking/v3r2', [[TrackingSubscriptionRequest, body]])) return;
    const b = body as { listenerURL: string; secret: string; adminNotification: { email: string }[]; filterProperties: { trackingNumber: string; trackingEventTypes?: string[] } };
    const subscriptionId = String(700000 + fake.subscriptions.size + fake.unsubscribed.length);
    fake.subscriptions.set(b.filterProperties.trackingNumber, { subscriptionId, listenerURL: b.listenerURL, secret: b.secret });
    const at = new Date().toISOString();
    sendJson(res, 201, { subscriptionId, listenerURL: b.listenerURL, status: 'ENABLED', adminNotification: b.adminNotification, filterProperties: b.filterProperties, creationTimestamp: at, statusChangeTimestamp: at }, { location: `/subscriptions-tracking/v3r2/subscriptions/${subscriptionId}` });
  }

  /**
   * GET and DELETE /subscriptions/{subscriptionId}: the GET answers the subscription with an ETag, and the DELETE
   * requires it as If-Match ("All DELETE and PUT operations require an ETag to be supplied as the If-Match
   * parameter"), a missing or stale one answered 400 / 412; 204 once deleted, 404 for one USPS does not have.
   */
  function subscription(req: IncomingMessage, res: ServerResponse, id: string): void {
    const entry = [...fake.subscriptions.entries()].find(([, s]) => s.subscriptionId === id);
    if (!entry) return sendJson(res, 404, envelope('3.2.2', 404, 'Not Found', [{ code: '404', detail: `No subscription ${id}` }]));
    const [trackingNumber, sub] = entry;
    const etag = createHash('sha1').update(`${id}:${sub.listenerURL}`).digest('hex');
    if (req.method === 'GET') {
      return sendJson(res, 200, { subscriptionId: id, listenerURL: sub.listenerURL, status: 'ENABLED', filterProperties: { trackingNumber } }, { etag });
    }
    const ifMatch = req.headers['if-match'];
    if (ifMatch === undefined) return sendJson(res, 400, envelope('3.2.2', 400, 'Bad Request', [{ code: '400', detail: 'If-Match is required' }]));
    if (ifMatch !== etag) return sendJson(res, 412, envelope('3.2.2', 412, 'Precondition Failed', [{ code: '412', detail: 'The ETag does not match' }]));
    fake.subscriptions.delete(trackingNumber);
    fake.unsubscribed.push(id);
    res.writeHead(204).end();
  }

  function address(res: ServerResponse, q: URLSearchParams): void {
    if (refused(res, '/addresses/v3', [[AddressQuery, Object.fromEntries(q)]])) return;
    const street = q.get('streetAddress')!;
    const state = q.get('state')!;
    if (/nowhere/i.test(street)) {
      sendJson(res, 404, envelope('v3', 404, 'There is no match for the address requested.'));
      return;
    }
    const needsUnit = /apartments/i.test(street) && !q.get('secondaryAddress');
    sendJson(res, 200, {
      firm: q.get('firm')?.toUpperCase() ?? '',
      address: {
        streetAddress: street.toUpperCase().replace(/\bSTREET\b/, 'ST'),
        streetAddressAbbreviation: street.toUpperCase().replace(/\bSTREET\b/, 'ST'),
        secondaryAddress: q.get('secondaryAddress')?.toUpperCase() ?? '',
        city: (q.get('city') ?? 'SAN FRANCISCO').toUpperCase(),
        cityAbbreviation: '',
        state,
        ZIPCode: q.get('ZIPCode') ?? '94105',
        ZIPPlus4: '1804',
        urbanization: '',
      },
      additionalInfo: { deliveryPoint: '15', carrierRoute: 'C036', DPVConfirmation: needsUnit ? 'D' : 'Y', DPVCMRA: 'N', business: q.get('firm') ? 'Y' : 'N', centralDeliveryPoint: 'N', vacant: 'N' },
      corrections: needsUnit ? [{ code: '32', text: 'Default address: The address you entered was found but more information is needed (such as an apartment, suite, or box number) to match to a specific address.' }] : [{ code: '', text: '' }],
      matches: needsUnit ? [] : [{ code: '31', text: 'Single Response - exact match' }],
      warnings: [],
    });
  }

  let ratesInFlight = 0;
  const server = await serve(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { raw, parsed } = await readBody(req);
    fake.calls.push(recordedCall(req, url.pathname + url.search, parsed));
    const route = `${req.method} ${url.pathname}`;
    if (route === 'POST /oauth2/v3/token') return token(req, res, parsed);

    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (expireNext) {
      expireNext = false;
      tokens.clear();
    }
    if (!tokens.has(bearer)) {
      return sendJson(res, 401, envelope('/oauth2/v3', 401, 'Unauthorized', [{ code: '401', detail: 'The access token is missing, invalid or expired.' }]), { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    const failing = fake.failNext;
    fake.failNext = null;
    switch (failing) {
      case 'envelope':
        return sendJson(res, 400, envelope(url.pathname.split('/').slice(0, 3).join('/'), 400, 'Bad Request', [{ code: '999999', detail: 'The request could not be processed.' }]));
      case 'http500':
        return sendJson(res, 500, envelope(url.pathname.split('/').slice(0, 3).join('/'), 500, 'Internal Server Error'));
      case 'rate_limited':
        return sendJson(res, 429, envelope(url.pathname.split('/').slice(0, 3).join('/'), 429, 'Too Many Requests'), { 'retry-after': '30' });
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"pricingOptions": [{"priceType": "COMMERCIAL", "shippingOptions": [');
      case 'slow':
        await new Promise((r) => setTimeout(r, fake.slowMs));
        break;
      default:
        break;
    }
    if (res.destroyed) return;
    if (route === 'POST /shipments/v3/options/search') {
      fake.mostRatesAtOnce = Math.max(fake.mostRatesAtOnce, ++ratesInFlight);
      try {
        if (fake.rateDelayMs > 0) await new Promise((r) => setTimeout(r, fake.rateDelayMs));
        return res.destroyed ? undefined : rates(res, parsed);
      } finally {
        ratesInFlight--;
      }
    }
    if (route === 'POST /payments/v3/payment-authorization') return payment(res, parsed);
    if (route === 'POST /labels/v3/label') return label(req, res, parsed, raw, false);
    if (route === 'POST /labels/v3/return-label') return label(req, res, parsed, raw, true);
    if (route === 'POST /international-labels/v3/international-label') return internationalLabel(req, res, parsed, raw);
    if (route === 'POST /international-prices/v3/base-rates-list/search') return internationalRates(res, parsed, false);
    if (route === 'POST /international-prices/v3/total-rates/search') return internationalRates(res, parsed, true);
    const cancelMatch = req.method === 'DELETE' && url.pathname.match(/^\/labels\/v3\/label\/([^/]+)$/);
    if (cancelMatch) return cancel(req, res, decodeURIComponent(cancelMatch[1]!));
    const trackMatch = req.method === 'GET' && url.pathname.match(/^\/tracking\/v3\/tracking\/([^/]+)$/);
    if (trackMatch) return tracking(res, decodeURIComponent(trackMatch[1]!), url.searchParams);
    if (route === 'GET /addresses/v3/address') return address(res, url.searchParams);
    if (route === 'GET /locations/v3/post-office-locations') {
      if (!scopes.get(bearer)?.includes('locations')) return sendJson(res, 403, envelope('/locations/v3', 403, 'Access Denied', [{ code: '403', detail: 'The access token was not issued for the locations scope.' }]));
      return locations.handle(res, url.searchParams);
    }
    if (route === 'POST /scan-forms/v3/scan-form') return scanForms.handle(req, res, parsed);
    if (pickups.handle(req.method ?? '', url, req.headers, res, parsed)) return;
    if (route === 'POST /tracking/v3r2/tracking') return trackingBatch(res, parsed);
    if (route === 'POST /subscriptions-tracking/v3r2/subscriptions') return subscribe(res, parsed);
    const subscriptionMatch = (req.method === 'GET' || req.method === 'DELETE') && url.pathname.match(/^\/subscriptions-tracking\/v3r2\/subscriptions\/([^/]+)$/);
    if (subscriptionMatch) return subscription(req, res, decodeURIComponent(subscriptionMatch[1]!));
    sendJson(res, 404, envelope('v3', 404, 'Not Found', [{ code: '404', detail: `No route ${route}` }]));
  });
  return Object.assign(fake, server);
}
