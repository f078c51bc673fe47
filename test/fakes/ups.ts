import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { upsTrackingNumber } from '../../src/carriers/tracking-numbers.ts';
import { compileContracts, contractViolations } from '../contracts/check.ts';
import { xavCall } from '../contracts/ups/address-validation.ts';
import { tokenCall } from '../contracts/ups/oauth.ts';
import { rateCall } from '../contracts/ups/rating.ts';
import { labelRecoveryCall, shipCall, voidCall } from '../contracts/ups/shipping.ts';
import { trackCall } from '../contracts/ups/tracking.ts';
import { subscriptionCall, trackingEventMessage } from '../contracts/ups/track-alert.ts';
import { pickupCancelCall, pickupCreationCall, pickupPendingCall, pickupRateCall } from '../contracts/ups/pickup.ts';
import { locatorCall } from '../contracts/ups/locator.ts';
import { upsPickupRoutes, type UpsFakePickup, type UpsPickupRoutes } from './ups-pickup.ts';
import { accessPointRefusal, answerLocator } from './ups-locator.ts';
import { readText, recordedCall, sendJson, serve, type RecordedCall } from './server.ts';
import { labelPdf } from './label-files.ts';

// A local UPS speaking the published formats of carriers.md 2 and the quirks of section 8: Basic-auth tokens
// with string expires_in, arrays for RatedShipment/PackageResults/Candidate (single objects on request), money
// as strings, empty Service.Description in Shop answers, and the {"response":{"errors":[...]}} envelope.
// XAV does not mimic CIE's NY/CA-only coverage (8.6): every state resolves, so tests can use any address.
// Every request is first held against our schemas of UPS's published contracts (test/contracts/ups/), the same the
// contract tests use, and one that breaks them is answered 400 in UPS's error envelope, as UPS would.

export const upsFakeCredentials = { clientId: 'ups-client', clientSecret: 'ups-secret', accountNumber: 'A1B2C3' };

export type UpsTrackingStage = 'label' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception' | 'returned';
export type UpsFailureShape =
  | { kind: 'envelope'; status: number; code: string; message: string }
  | { kind: 'server_error' }
  | { kind: 'slow'; ms: number }
  | { kind: 'malformed' }
  /**
   * HTTP 429 with Retry-After (seconds). Tracking.yaml declares no 429, but UPS's gateway throttles every API and the
   * Rating spec names it ("Rate Limit Exceeded", the UPS envelope); UPS publishes no code for it, so the status is the code.
   */
  | { kind: 'throttled'; retryAfterSeconds: number };

interface Shipment {
  id: string;
  service: string;
  format: string;
  voided: boolean;
  /** Its packages' 1Z numbers, in the order of the request; the first is the shipment's id. */
  packages: string[];
}

/** One package of a shipment, as tracking and label recovery find it by its own number. */
interface Piece {
  shipment: Shipment;
  stage: UpsTrackingStage;
  /** Voided on its own (the void's `trackingnumber`), its shipment shipping on. */
  voided: boolean;
}

export interface UpsFake {
  url: string;
  close(): Promise<void>;
  calls: RecordedCall[];
  tokenRequests: number;
  /** Answer RatedShipment, PackageResults, Candidate, LabelResults and AddressLine as single objects, the pre-v2409 way. */
  singleObjects: boolean;
  /** Make every token issued so far invalid: the next API call gets UPS's 401. */
  expireTokens(): void;
  /** The next API call (not the token endpoint), or the next whose path starts with `pathPrefix`, answers with this shape instead. */
  failNext(shape: UpsFailureShape, pathPrefix?: string): void;
  /** Move a package along (a shipment's number is its first package's), for tracking and void. */
  setStage(trackingNumber: string, stage: UpsTrackingStage): void;
  /** Whether the package is voided, on its own or with its shipment. */
  isVoided(trackingNumber: string): boolean;
  /** A package shipped by someone else (a label not bought here), at this stage: tracking finds it as any other. */
  addPackage(trackingNumber: string, stage: UpsTrackingStage): void;
  /** Track unknown numbers with HTTP 404 instead of a 200 with warning TW0001; UPS does both (carriers.md 2.6). */
  notFoundAs404: boolean;
  /** When set, Label Recovery answers these bytes whatever format was asked, as a UPS answering the wrong image type would. */
  recoveredImage: Buffer | undefined;
  /** Requests refused for breaking UPS's published contract, with what broke it. */
  contractRefusals: { path: string; violations: string[] }[];
  /** On-call pickups booked, by PRN (the Pickup API: test/fakes/ups-pickup.ts). */
  pickups: Map<string, UpsFakePickup>;
  pickupControls: UpsPickupRoutes['controls'];
  /** Track Alert subscriptions made, by 1Z number: where UPS posts its messages and the credential it sends back. */
  subscriptions: Map<string, { url: string; credentialType: string; credential: string }>;
  /**
   * Posts one Track Alert message about a subscribed number, as UPS does: the scan as a TrackingEventRequest (checked
   * against our schema of the spec's), the subscription's credential in the `credential` header (or `credential`
   * given here, to play an impostor; null sends none). Answers shipd's status and body.
   */
  pushScan(trackingNumber: string, scan: UpsPushedScan, options?: { credential?: string | null }): Promise<{ status: number; text: string }>;
}

/** A scan as Track Alert tells it: when (GMT), the status type and codes, and where. */
export interface UpsPushedScan {
  at: Date;
  type: string;
  code: string;
  descriptionCode: string;
  description: string;
  city: string;
  state: string;
  country: string;
  postalCode?: string;
  scheduledDeliveryDate?: string;
}

const gif1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const fakeZpl = (tn: string): string => `^XA^FO50,50^BCN,100^FD${tn}^FS^XZ`;
export const fakePdf = (tn: string): string => labelPdf(`UPS label ${tn}`).toString('latin1');

/** Published prices in dollars at 1 lb, plus per pound, and transit days: deterministic, not UPS's tariff. */
const offered: { code: string; base: number; perLb: number; days: number }[] = [
  { code: '03', base: 11.25, perLb: 0.9, days: 3 },
  { code: '12', base: 18.4, perLb: 1.6, days: 3 },
  { code: '02', base: 24.1, perLb: 2.3, days: 2 },
  { code: '59', base: 29.8, perLb: 2.6, days: 2 },
  { code: '13', base: 41.35, perLb: 3.1, days: 1 },
  { code: '01', base: 46.9, perLb: 3.4, days: 1 },
  { code: '14', base: 79.5, perLb: 4.2, days: 1 },
];

/** Services from the US to another country, priced the same deterministic way; Standard (11) to Canada and Mexico only. */
const offeredAbroad: { code: string; base: number; perLb: number; days: number }[] = [
  { code: '11', base: 28.9, perLb: 2.1, days: 5 },
  { code: '08', base: 74.6, perLb: 4.9, days: 5 },
  { code: '65', base: 88.2, perLb: 5.6, days: 3 },
  { code: '07', base: 96.4, perLb: 6.2, days: 2 },
];
const servicesTo = (country: string) => (country === 'US' ? offered : offeredAbroad.filter((o) => o.code !== '11' || ['CA', 'MX'].includes(country)));

const money = (n: number): string => n.toFixed(2);

/**
 * What the fake charges for each delivery option, in dollars, under UPS's accessorial codes (Shipping API appendix,
 * "Accessorial / Surcharge Codes"): deterministic figures, not UPS's tariff. Saturday delivery is charged by the air
 * services only, the ones that deliver on Saturdays.
 */
const optionCharges = {
  signature: { Code: '120', Description: 'DELIVERY CONFIRMATION', SubType: 'Signature Required', dollars: 6 },
  adultSignature: { Code: '120', Description: 'DELIVERY CONFIRMATION', SubType: 'Adult Signature Required', dollars: 8 },
  dryIce: { Code: '200', Description: 'DRY ICE', dollars: 5 },
  additionalHandling: { Code: '100', Description: 'ADDITIONAL HANDLING', dollars: 25 },
  saturday: { Code: '300', Description: 'SATURDAY DELIVERY', dollars: 16 },
  carbonNeutral: { Code: '441', Description: 'CARBON NEUTRAL', dollars: 0.5 },
  alcohol: { Code: '205', Description: 'ISC ALCOHOLIC BEVERAGES', dollars: 5 },
};
type OptionCharge = { Code: string; Description: string; SubType?: string; dollars: number };
const saturdayServices = new Set(['01', '02', '13', '14', '59']);

const itemizedCharge = (c: OptionCharge) => ({ Code: c.Code, Description: c.Description, CurrencyCode: 'USD', MonetaryValue: money(c.dollars), SubType: c.SubType ?? '' });

/** A package's option charges, from what its Package asks. */
function packageOptionCharges(pkg: unknown): OptionCharge[] {
  const dcis = get(pkg, 'PackageServiceOptions', 'DeliveryConfirmation', 'DCISType');
  return [
    ...(dcis === '2' ? [optionCharges.signature] : dcis === '3' ? [optionCharges.adultSignature] : []),
    ...(get(pkg, 'PackageServiceOptions', 'DryIce') !== undefined ? [optionCharges.dryIce] : []),
    ...(get(pkg, 'AdditionalHandlingIndicator') !== undefined ? [optionCharges.additionalHandling] : []),
  ];
}

/** The shipment's option charges for one service, from its ShipmentServiceOptions. */
function shipmentOptionCharges(shipment: unknown, service: string, packages: number): OptionCharge[] {
  const options = get(shipment, 'ShipmentServiceOptions');
  // The shipment's DeliveryConfirmation (abroad) numbers its types one lower than the package's: 1 signature, 2 adult.
  const dcis = get(options, 'DeliveryConfirmation', 'DCISType');
  return [
    ...(dcis === '1' ? [optionCharges.signature] : dcis === '2' ? [optionCharges.adultSignature] : []),
    ...(get(options, 'SaturdayDeliveryIndicator') !== undefined && saturdayServices.has(service) ? [optionCharges.saturday] : []),
    ...(get(options, 'UPScarbonneutralIndicator') !== undefined ? [{ ...optionCharges.carbonNeutral, dollars: optionCharges.carbonNeutral.dollars * packages }] : []),
    ...(get(options, 'RestrictedArticles', 'AlcoholicBeveragesIndicator') !== undefined ? [optionCharges.alcohol] : []),
  ];
}

const dollarsOf = (charges: OptionCharge[]) => charges.reduce((sum, c) => sum + c.dollars, 0);

/** Pounds of a weight with its UPS unit code (Shipping's dry ice takes 00/KG/KGS for kilograms). */
const pounds = (weight: unknown, unit: unknown): number => Number(weight) * (['00', 'KG', 'KGS'].includes(String(unit)) ? 2.20462 : 1);

/**
 * What UPS refuses beyond the schema in the packages: DryIceWeight "Cannot be more than package weight" (both specs).
 * One line per fault, naming its place as the contract refusals do.
 */
function packageFaults(packages: unknown[], at: string): string[] {
  return packages.flatMap((pkg, i) => {
    const ice = get(pkg, 'PackageServiceOptions', 'DryIce', 'DryIceWeight');
    if (ice === undefined) return [];
    const iceLb = pounds(get(ice, 'Weight'), get(ice, 'UnitOfMeasurement', 'Code'));
    const packageLb = pounds(get(pkg, 'PackageWeight', 'Weight'), get(pkg, 'PackageWeight', 'UnitOfMeasurement', 'Code'));
    return iceLb > packageLb ? [`${at}/Package/${i}/PackageServiceOptions/DryIce/DryIceWeight/Weight cannot be more than package weight`] : [];
  });
}

/** A whole shipment's charges for one service: each package's transport by its own weight, and the options asked. */
function priceShipment(shipment: unknown, o: { code: string; base: number; perLb: number }) {
  const packages = [get(shipment, 'Package')].flat();
  const pieces = packages.map((pkg) => {
    const weight = Number(get(pkg, 'PackageWeight', 'Weight'));
    const billed = Math.ceil(Number.isFinite(weight) && weight > 0 ? weight : 1);
    const options = packageOptionCharges(pkg);
    return { weight, billed, transport: o.base + o.perLb * (billed - 1), options };
  });
  const shipmentOptions = shipmentOptionCharges(shipment, o.code, packages.length);
  const transport = pieces.reduce((sum, p) => sum + p.transport, 0);
  const options = pieces.reduce((sum, p) => sum + dollarsOf(p.options), 0) + dollarsOf(shipmentOptions);
  // The account pays 80% of transport; options are not discounted.
  return { pieces, shipmentOptions, transport, options, list: transport + options, account: transport * 0.8 + options, billed: pieces.reduce((sum, p) => sum + p.billed, 0) };
}

function addBusinessDays(yyyymmdd: string, days: number): string {
  const d = new Date(`${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10).replaceAll('-', '');
}

const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

const errorBody = (code: string, message: string) => ({ response: { errors: [{ code, message }] } });

/** What UPS refuses abroad beyond the schema: an invoice line of more than $2,500 without an ITN on it (15 CFR 30.37(a)). */
function abroadRefusal(forms: unknown): { code: string; message: string } | undefined {
  if (forms === undefined) return undefined;
  const products = [get(forms, 'Product')].flat();
  const currency = String(get(forms, 'CurrencyCode') ?? '');
  const over = products.some((p) => currency === 'USD' && Number(get(p, 'Unit', 'Value')) * Number(get(p, 'Unit', 'Number')) > 2500);
  if (over && !/AES\s*X\d{14}/.test(String(get(forms, 'Comments') ?? ''))) return { code: '120432', message: 'A line valued over 2,500 USD requires EEI: give the ITN.' };
  return undefined;
}

/** The contract each API path answers to; the path patterns in the schemas say which versions exist. */
function contractOf(method: string, path: string): TSchema | undefined {
  if (method === 'POST' && /^\/api\/shipments\/[^/]+\/pickup\//.test(path)) return pickupRateCall;
  if (method === 'GET' && /^\/api\/shipments\/[^/]+\/pickup\//.test(path)) return pickupPendingCall;
  if (method === 'DELETE' && /^\/api\/shipments\/[^/]+\/pickup\//.test(path)) return pickupCancelCall;
  if (method === 'POST' && path.startsWith('/api/pickupcreation/')) return pickupCreationCall;
  if (method === 'POST' && path.startsWith('/api/rating/')) return rateCall;
  if (method === 'POST' && /^\/api\/shipments\/[^/]+\/ship$/.test(path)) return shipCall;
  if (method === 'DELETE' && path.includes('/void/cancel/')) return voidCall;
  if (method === 'POST' && path.startsWith('/api/labels/')) return labelRecoveryCall;
  if (method === 'POST' && path.startsWith('/api/track/v1/subscription/')) return subscriptionCall;
  if (method === 'GET' && path.startsWith('/api/track/')) return trackCall;
  if (method === 'POST' && path.startsWith('/api/addressvalidation/')) return xavCall;
  if (method === 'POST' && path.startsWith('/api/locations/')) return locatorCall;
  return undefined;
}

/** The headers the UPS specs name, by their spec spelling (Node lower-cases what it receives). */
function specHeaders(req: IncomingMessage): Record<string, string> {
  const named: Record<string, string> = {};
  for (const name of ['transId', 'transactionSrc', 'Prn', 'AccountNumber']) {
    const value = req.headers[name.toLowerCase()];
    if (typeof value === 'string') named[name] = value;
  }
  return named;
}

/** The activities of each stage, most recent first as UPS sends them. */
function activities(stage: UpsTrackingStage): unknown[] {
  const at = (date: string, gmtTime: string, type: string, statusCode: string, description: string, city: string, state: string, zip: string) => ({
    date,
    time: gmtTime.replaceAll(':', ''),
    gmtDate: date,
    gmtTime,
    gmtOffset: '-05:00',
    location: { address: { city, stateProvince: state, postalCode: zip, country: 'US', countryCode: 'US' }, slic: '1234' },
    status: { type, code: type === 'M' ? 'MP' : 'XX', description, statusCode },
  });
  const created = at('20260302', '14:00:00', 'M', '003', 'Shipper created a label, UPS has not received the package yet.', '', '', '');
  const picked = at('20260302', '22:10:00', 'I', '038', 'Picked up by UPS', 'San Francisco', 'CA', '94105');
  const moving = at('20260303', '06:30:00', 'I', '005', 'Departed from Facility', 'Oakland', 'CA', '94621');
  const out = at('20260304', '08:15:00', 'I', '021', 'Out For Delivery Today', 'Brooklyn', 'NY', '11201');
  const done = at('20260304', '15:42:00', 'D', '011', 'DELIVERED', 'Brooklyn', 'NY', '11201');
  const trouble = at('20260304', '12:00:00', 'X', '013', 'The receiver was not available for delivery.', 'Brooklyn', 'NY', '11201');
  const back = at('20260305', '09:00:00', 'X', '034', 'Returned to Sender', 'Brooklyn', 'NY', '11201');
  const chain: Record<UpsTrackingStage, unknown[]> = {
    label: [created],
    in_transit: [created, picked, moving],
    out_for_delivery: [created, picked, moving, out],
    delivered: [created, picked, moving, out, done],
    exception: [created, picked, moving, trouble],
    returned: [created, picked, moving, trouble, back],
  };
  return [...chain[stage]].reverse();
}

const contracts = [tokenCall, rateCall, shipCall, voidCall, labelRecoveryCall, trackCall, xavCall, subscriptionCall, trackingEventMessage, pickupRateCall, pickupCreationCall, pickupCancelCall, pickupPendingCall, locatorCall];

export async function startUpsFake(): Promise<UpsFake> {
  compileContracts(contracts);
  const pickupApi = upsPickupRoutes(errorBody);
  const tokens = new Set<string>();
  const shipments = new Map<string, Shipment>();
  const pieces = new Map<string, Piece>();
  const pending: { shape: UpsFailureShape; pathPrefix: string }[] = [];
  let issued = 0;
  let nextReference = 1000;

  const fake: Omit<UpsFake, 'url' | 'close'> = {
    calls: [],
    tokenRequests: 0,
    singleObjects: false,
    notFoundAs404: false,
    recoveredImage: undefined,
    contractRefusals: [],
    subscriptions: new Map(),
    pickups: pickupApi.pickups,
    pickupControls: pickupApi.controls,
    pushScan: async (trackingNumber, scan, options = {}) => {
      const sub = fake.subscriptions.get(trackingNumber);
      if (!sub) throw new Error(`the UPS fake has no Track Alert subscription for ${trackingNumber}`);
      const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
      const hms = (d: Date) => d.toISOString().slice(11, 19).replaceAll(':', '');
      // The message carries no offset; the fake's local time is US Eastern standard time, five hours behind GMT.
      const local = new Date(scan.at.getTime() - 5 * 3_600_000);
      const delivered = scan.type === 'D' && scan.descriptionCode === '011';
      const message = {
        trackingNumber,
        localActivityDate: ymd(local),
        localActivityTime: hms(local),
        activityLocation: { city: scan.city, stateProvince: scan.state, postalCode: delivered ? (scan.postalCode ?? '') : '', country: scan.country },
        activityStatus: { type: scan.type, code: scan.code, description: scan.description, descriptionCode: scan.descriptionCode },
        scheduledDeliveryDate: scan.scheduledDeliveryDate ?? '',
        actualDeliveryDate: delivered ? ymd(local) : '',
        actualDeliveryTime: delivered ? hms(local) : '',
        gmtActivityDate: ymd(scan.at),
        gmtActivityTime: hms(scan.at),
        deliveryStartTime: '',
        deliveryEndTime: '',
        deliveryTimeDescription: delivered ? '' : 'end of day',
      };
      const faults = contractViolations(trackingEventMessage, message);
      if (faults.length > 0) throw new Error(`the UPS fake's message breaks TrackingEventRequest: ${faults.join('; ')}`);
      const credential = options.credential === undefined ? sub.credential : options.credential;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'UPSPubSubTrackingService' };
      if (credential !== null) headers.credential = credential;
      const res = await fetch(sub.url, { method: 'POST', headers, body: JSON.stringify(message) });
      return { status: res.status, text: await res.text() };
    },
    expireTokens: () => tokens.clear(),
    failNext: (shape, pathPrefix = '/api/') => void pending.push({ shape, pathPrefix }),
    setStage: (tn, stage) => {
      const piece = pieces.get(tn);
      if (!piece) throw new Error(`the UPS fake has no package ${tn}`);
      piece.stage = stage;
    },
    addPackage: (tn, stage) => {
      pieces.set(tn, { shipment: { id: tn, service: '03', format: 'GIF', voided: false, packages: [tn] }, stage, voided: false });
    },
    isVoided: (tn) => {
      const piece = pieces.get(tn);
      if (!piece) throw new Error(`the UPS fake has no package ${tn}`);
      return piece.voided || piece.shipment.voided;
    },
  };
  const list = <T>(items: T[]): T | T[] => (fake.singleObjects && items.length === 1 ? items[0]! : items);

  function refuse(res: ServerResponse, path: string, violations: string[], code = '10001'): void {
    fake.contractRefusals.push({ path, violations });
    sendJson(res, 400, errorBody(code, `Invalid request: ${violations.join('; ')}`));
  }

  function token(req: IncomingMessage, raw: string, res: ServerResponse): void {
    fake.tokenRequests++;
    const auth = String(req.headers.authorization ?? '');
    const form = new URLSearchParams(raw);
    if (!/application\/x-www-form-urlencoded/.test(String(req.headers['content-type'] ?? ''))) {
      return sendJson(res, 400, errorBody('10400', 'Invalid/Missing Content-Type, expected application/x-www-form-urlencoded'));
    }
    if (!auth.startsWith('Basic ')) return sendJson(res, 401, errorBody('10401', 'ClientId is Invalid: credentials must be sent with HTTP Basic'));
    const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
    if (id !== upsFakeCredentials.clientId || secret !== upsFakeCredentials.clientSecret) {
      return sendJson(res, 401, errorBody('10401', `Invalid Client Id: ${id ?? ''}`));
    }
    const merchant = req.headers['x-merchant-id'];
    const violations = contractViolations(tokenCall, {
      path: '/security/v1/oauth/token',
      headers: { authorization: auth, ...(typeof merchant === 'string' ? { 'x-merchant-id': merchant } : {}) },
      form: Object.fromEntries(form),
    });
    if (violations.length > 0) return refuse(res, '/security/v1/oauth/token', violations, '10400');
    const accessToken = `ups-token-${++issued}`;
    tokens.add(accessToken);
    sendJson(res, 200, {
      token_type: 'Bearer',
      issued_at: '1772460000000',
      client_id: id,
      access_token: accessToken,
      scope: '',
      expires_in: '14399',
      refresh_count: '0',
      status: 'approved',
    });
  }

  function rate(path: string, body: unknown, res: ServerResponse): void {
    const shipment = get(body, 'RateRequest', 'Shipment');
    const packages = [get(shipment, 'Package')].flat();
    const weights = packages.map((pkg) => Number(get(pkg, 'PackageWeight', 'Weight')));
    if (!shipment || weights.some((w) => !Number.isFinite(w) || w <= 0)) return sendJson(res, 400, errorBody('111035', 'Missing or invalid package weight'));
    if (weights.some((w) => w > 150)) return sendJson(res, 400, errorBody('111036', 'The maximum per package weight for the selected service is 150 pounds'));
    const faults = packageFaults(packages, '/body/RateRequest/Shipment');
    if (faults.length > 0) return refuse(res, path, faults);
    const toZip = String(get(shipment, 'ShipTo', 'Address', 'PostalCode') ?? '');
    const country = String(get(shipment, 'ShipTo', 'Address', 'CountryCode') ?? 'US');
    if (country === 'US' && (!/^\d{5}(\d{4})?$/.test(toZip) || toZip.startsWith('000'))) return sendJson(res, 400, errorBody('111285', 'The postal code is invalid for the state.'));
    const negotiated = get(shipment, 'ShipmentRatingOptions', 'NegotiatedRatesIndicator') !== undefined;
    const pickup = String(get(shipment, 'DeliveryTimeInformation', 'Pickup', 'Date') ?? '20260302');
    const withTransit = get(shipment, 'DeliveryTimeInformation') !== undefined;
    const residential = get(shipment, 'ShipTo', 'Address', 'ResidentialAddressIndicator') !== undefined;
    // Surcharges inside the total, as Rating.yaml itemizes them: fuel and residential on the shipment, additional
    // handling (over 50 lb) on its package; the account's share of each in the negotiated containers. The options'
    // charges come on top, at the shipment or the package that asked for them.
    const itemized = (total: number, codes: [string, string, number][]) =>
      codes.map(([Code, Description, share]) => ({ Code, Description, CurrencyCode: 'USD', MonetaryValue: money(total * share), SubType: '' }));
    const shipmentCharges = (transport: number, options: OptionCharge[]) => [
      ...itemized(transport, [['375', 'FUEL SURCHARGE', 0.15], ...(residential ? [['270', 'RESIDENTIAL ADDRESS', 0.1] as [string, string, number]] : [])]),
      ...options.map(itemizedCharge),
    ];
    const packageCharges = (transport: number, weight: number, options: OptionCharge[]) => [...itemized(transport, weight > 50 ? [['100', 'ADDITIONAL HANDLING', 0.2]] : []), ...options.map(itemizedCharge)];
    const rated = servicesTo(country).map((o) => {
      const p = priceShipment(shipment, o);
      return {
        Service: { Code: o.code, Description: '' },
        RatedShipmentAlert: [{ Code: '110971', Description: 'Your invoice may vary from the displayed reference rates' }],
        BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: p.billed.toFixed(1) },
        TransportationCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.transport) },
        ServiceOptionsCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.options) },
        TotalCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.list) },
        ItemizedCharges: shipmentCharges(p.transport, p.shipmentOptions),
        RatedPackage: list(
          p.pieces.map((piece) => ({
            TransportationCharges: { CurrencyCode: 'USD', MonetaryValue: money(piece.transport) },
            ServiceOptionsCharges: { CurrencyCode: 'USD', MonetaryValue: money(dollarsOf(piece.options)) },
            TotalCharges: { CurrencyCode: 'USD', MonetaryValue: money(piece.transport + dollarsOf(piece.options)) },
            Weight: String(piece.weight),
            ItemizedCharges: packageCharges(piece.transport, piece.weight, piece.options),
            ...(negotiated ? { NegotiatedCharges: { ItemizedCharges: packageCharges(piece.transport * 0.8, piece.weight, piece.options) } } : {}),
          })),
        ),
        Zone: '008',
        ...(negotiated ? { NegotiatedRateCharges: { ItemizedCharges: shipmentCharges(p.transport * 0.8, p.shipmentOptions), TotalCharge: { CurrencyCode: 'USD', MonetaryValue: money(p.account) } } } : {}),
        ...(o.code !== '03' ? { GuaranteedDelivery: { BusinessDaysInTransit: String(o.days), DeliveryByTime: '10:30 A.M.' } } : {}),
        ...(withTransit
          ? {
              TimeInTransit: {
                PickupDate: pickup,
                ServiceSummary: {
                  Service: { Description: '' },
                  EstimatedArrival: { Arrival: { Date: addBusinessDays(pickup, o.days), Time: '230000' }, BusinessDaysInTransit: String(o.days), DayOfWeek: 'WED' },
                  ...(o.code !== '03' ? { GuaranteedIndicator: '' } : {}),
                },
              },
            }
          : {}),
      };
    });
    sendJson(res, 200, {
      RateResponse: {
        Response: {
          ResponseStatus: { Code: '1', Description: 'Success' },
          Alert: list([{ Code: '110971', Description: 'Your invoice may vary from the displayed reference rates' }]),
          TransactionReference: { CustomerContext: String(get(body, 'RateRequest', 'Request', 'TransactionReference', 'CustomerContext') ?? '') },
        },
        RatedShipment: fake.singleObjects ? rated[0] : rated,
      },
    });
  }

  function ship(path: string, body: unknown, res: ServerResponse): void {
    const request = get(body, 'ShipmentRequest');
    const shipment = get(request, 'Shipment');
    if (!['validate', 'nonvalidate'].includes(String(get(request, 'Request', 'RequestOption')))) {
      return sendJson(res, 400, errorBody('120001', 'Missing or invalid Request/RequestOption'));
    }
    if (get(shipment, 'PaymentInformation') === undefined) return sendJson(res, 400, errorBody('120100', 'Missing or invalid PaymentInformation'));
    const shipper = String(get(shipment, 'Shipper', 'ShipperNumber') ?? '');
    const billTo = [get(shipment, 'PaymentInformation', 'ShipmentCharge')].flat()[0];
    if (shipper !== upsFakeCredentials.accountNumber || get(billTo, 'BillShipper', 'AccountNumber') !== shipper) {
      return sendJson(res, 400, errorBody('120100', 'Missing or invalid shipper number'));
    }
    const packages = [get(shipment, 'Package')].flat();
    if (packages.some((pkg) => get(pkg, 'Packaging', 'Code') === undefined)) return sendJson(res, 400, errorBody('120701', 'Missing or invalid Packaging type'));
    const faults = packageFaults(packages, '/body/ShipmentRequest/Shipment');
    if (faults.length > 0) return refuse(res, path, faults);
    const service = String(get(shipment, 'Service', 'Code') ?? '');
    const country = String(get(shipment, 'ShipTo', 'Address', 'CountryCode') ?? 'US');
    const known = servicesTo(country).find((o) => o.code === service);
    if (!known) return sendJson(res, 400, errorBody('111100', 'The requested service is invalid from the selected origin.'));
    const forms = get(shipment, 'ShipmentServiceOptions', 'InternationalForms');
    const refusedAbroad = country === 'US' ? undefined : abroadRefusal(forms);
    if (refusedAbroad) return sendJson(res, 400, errorBody(refusedAbroad.code, refusedAbroad.message));
    const unknownPoint = accessPointRefusal(shipment);
    if (unknownPoint) return sendJson(res, 400, errorBody(unknownPoint.code, unknownPoint.message));
    const format = String(get(request, 'LabelSpecification', 'LabelImageFormat', 'Code') ?? '');
    if (!['GIF', 'ZPL', 'EPL', 'SPL'].includes(format)) return sendJson(res, 400, errorBody('120502', `Invalid LabelImageFormat code ${format}`));
    if (format !== 'GIF' && get(request, 'LabelSpecification', 'LabelStockSize', 'Height') === undefined) {
      return sendJson(res, 400, errorBody('120519', 'Missing or invalid LabelStockSize for thermal labels'));
    }
    const toZip = String(get(shipment, 'ShipTo', 'Address', 'PostalCode') ?? '');
    if (country === 'US' && !/^\d{5}(\d{4})?$/.test(toZip)) return sendJson(res, 400, errorBody('120802', 'Address Validation Error on ShipTo address'));
    // One 1Z per package; the shipment is known by its first ("1Z Number of the first package in the shipment").
    const numbers = packages.map(() => upsTrackingNumber(shipper.padEnd(6, '0').slice(0, 6), service, String(nextReference++).padStart(7, '0')));
    const tn = numbers[0]!;
    const record: Shipment = { id: tn, service, format, voided: false, packages: numbers };
    shipments.set(tn, record);
    for (const n of numbers) pieces.set(n, { shipment: record, stage: 'label', voided: false });
    const p = priceShipment(shipment, known);
    const image = (n: string) => (format === 'GIF' ? gif1x1 : Buffer.from(fakeZpl(n)));
    sendJson(res, 200, {
      ShipmentResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        ShipmentResults: {
          ShipmentCharges: {
            TransportationCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.transport) },
            ServiceOptionsCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.options) },
            TotalCharges: { CurrencyCode: 'USD', MonetaryValue: money(p.list) },
            ...(p.shipmentOptions.length > 0 ? { ItemizedCharges: p.shipmentOptions.map(itemizedCharge) } : {}),
          },
          NegotiatedRateCharges: { TotalCharge: { CurrencyCode: 'USD', MonetaryValue: money(p.account) } },
          BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: p.billed.toFixed(1) },
          ShipmentIdentificationNumber: tn,
          // Without Paperless Invoice on the account, UPS answers the invoice it made as a form image to print.
          ...(forms ? { Form: { Code: '01', Description: 'All Requested International Forms', Image: { ImageFormat: { Code: 'PDF', Description: 'PDF' }, GraphicImage: Buffer.from(fakePdf(`invoice ${tn}`)).toString('base64') }, FormGroupId: tn.slice(2) } } : {}),
          PackageResults: list(
            numbers.map((n, i) => ({
              TrackingNumber: n,
              ServiceOptionsCharges: { CurrencyCode: 'USD', MonetaryValue: money(dollarsOf(p.pieces[i]!.options)) },
              ...(p.pieces[i]!.options.length > 0 ? { ItemizedCharges: p.pieces[i]!.options.map(itemizedCharge) } : {}),
              ShippingLabel: {
                ImageFormat: { Code: format, Description: format },
                GraphicImage: image(n).toString('base64'),
                ...(format === 'GIF' ? { HTMLImage: Buffer.from(`<html><img src="label${n}.gif"></html>`).toString('base64') } : {}),
              },
            })),
          ),
        },
      },
    });
  }

  function recover(body: unknown, res: ServerResponse): void {
    const tn = String(get(body, 'LabelRecoveryRequest', 'TrackingNumber') ?? '');
    const format = String(get(body, 'LabelRecoveryRequest', 'LabelSpecification', 'LabelImageFormat', 'Code') ?? 'GIF');
    if (!pieces.has(tn)) return sendJson(res, 400, errorBody('190102', 'No shipment found for the tracking number'));
    const image = fake.recoveredImage ?? (format === 'PDF' ? Buffer.from(fakePdf(tn)) : format === 'ZPL' ? Buffer.from(fakeZpl(tn)) : gif1x1);
    sendJson(res, 200, {
      LabelRecoveryResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        ShipmentIdentificationNumber: tn,
        LabelResults: list([{ TrackingNumber: tn, LabelImage: { LabelImageFormat: { Code: format }, GraphicImage: image.toString('base64') } }]),
      },
    });
  }

  /**
   * A whole shipment's void, or with `trackingnumber` (one 1Z, or the spec's bracketed list) those packages alone. A
   * package voided before answers "1" again, as Shipping.yaml's PackageLevelResults has it ("1 = Voided or Already
   * Voided"); one picked up answers "0" (Not Voided) and the others asked are voided.
   */
  function cancel(id: string, trackingNumbers: string | undefined, res: ServerResponse): void {
    const s = shipments.get(id);
    if (!s) return sendJson(res, 400, errorBody('190102', 'No shipment found within the allowed void period'));
    if (s.voided) return sendJson(res, 400, errorBody('190117', 'The shipment has already been voided'));
    const ok = { Code: '1', Description: 'Voided' };
    const voided = (summary: typeof ok, packageResults: unknown[] | undefined) =>
      sendJson(res, 200, {
        VoidShipmentResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          SummaryResult: { Status: summary },
          // A multi-piece shipment's void, and a void of packages, says it of each package.
          ...(packageResults ? { PackageLevelResults: packageResults } : {}),
        },
      });
    if (trackingNumbers === undefined) {
      if (s.packages.some((n) => !pieces.get(n)!.voided && pieces.get(n)!.stage !== 'label')) return sendJson(res, 400, errorBody('190118', 'The package has been picked up and cannot be voided'));
      s.voided = true;
      return voided(ok, s.packages.length > 1 ? s.packages.map((TrackingNumber) => ({ TrackingNumber, Status: ok })) : undefined);
    }
    const asked = trackingNumbers.startsWith('[') ? (JSON.parse(trackingNumbers) as string[]) : [trackingNumbers];
    const strangers = asked.filter((n) => !s.packages.includes(n));
    if (strangers.length > 0) return sendJson(res, 400, errorBody('190102', `No package ${strangers.join(', ')} in shipment ${id}`));
    const results = asked.map((n) => {
      const piece = pieces.get(n)!;
      if (piece.voided) return { TrackingNumber: n, Status: ok };
      if (piece.stage !== 'label') return { TrackingNumber: n, Status: { Code: '0', Description: 'Not Voided' } };
      piece.voided = true;
      return { TrackingNumber: n, Status: ok };
    });
    // Every package voided, one by one or now, voids the shipment.
    if (s.packages.every((n) => pieces.get(n)!.voided)) s.voided = true;
    voided(results.every((r) => r.Status.Code === '1') ? ok : { Code: '0', Description: 'Not Voided' }, results);
  }

  function track(req: IncomingMessage, tn: string, res: ServerResponse): void {
    if (!req.headers.transid || !req.headers.transactionsrc) return sendJson(res, 400, errorBody('TV1001', 'Missing transId or transactionSrc header'));
    if (tn.length < 7 || tn.length > 34) return sendJson(res, 400, errorBody('TV1002', 'Invalid inquiry number'));
    const piece = pieces.get(tn);
    if (!piece) {
      if (fake.notFoundAs404) return sendJson(res, 404, errorBody('TW0001', 'Tracking Information Not Found'));
      return sendJson(res, 200, { trackResponse: { shipment: [{ inquiryNumber: tn, warnings: [{ code: 'TW0001', message: 'Tracking Information Not Found' }] }] } });
    }
    const s = piece.shipment;
    const asked = new URL(req.url ?? '/', 'http://ups.fake');
    const acts = s.voided || piece.voided ? [{ ...(activities('label')[0] as object), status: { type: 'MV', code: 'MV', description: 'Shipment Information Voided', statusCode: '007' } }] : activities(piece.stage);
    const latest = acts[0] as { status: unknown };
    sendJson(res, 200, {
      trackResponse: {
        shipment: [
          {
            inquiryNumber: tn,
            package: [
              {
                trackingNumber: tn,
                currentStatus: latest.status,
                activity: acts,
                deliveryDate: piece.stage === 'delivered' ? [{ type: 'DEL', date: '20260304' }] : [{ type: 'SDD', date: '20260304' }],
                // Tracking.yaml DeliveryInformation, "populated only when the package is delivered"; its signature image
                // and POD only when asked for (returnSignature, returnPOD), each base64, as a small GIF and a PDF letter.
                ...(piece.stage === 'delivered' && {
                  deliveryInformation: {
                    location: 'Front Door',
                    receivedBy: 'LOVELACE',
                    ...(asked.searchParams.get('returnSignature') === 'true' && { signature: { image: 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==' } }),
                    ...(asked.searchParams.get('returnPOD') === 'true' && { pod: { content: Buffer.from(`%PDF-1.4\n% UPS proof of delivery ${tn}\n%%EOF\n`).toString('base64') } }),
                  },
                }),
                service: { code: s.service === '03' ? '518' : '001', description: s.service === '03' ? 'UPS Ground' : 'UPS Air' },
                packageCount: s.packages.length,
              },
            ],
          },
        ],
      },
    });
  }

  /** Track Alert: every number in the 1Z form is subscribed (the contract refused the request otherwise), to the destination given. */
  function subscribe(body: unknown, res: ServerResponse): void {
    const numbers = [get(body, 'trackingNumberList')].flat().map(String);
    const destination = { url: String(get(body, 'destination', 'url')), credentialType: String(get(body, 'destination', 'credentialType')), credential: String(get(body, 'destination', 'credential')) };
    for (const n of numbers) fake.subscriptions.set(n, destination);
    sendJson(res, 200, { validTrackingNumbers: numbers });
  }

  function validate(body: unknown, res: ServerResponse): void {
    const key = get(body, 'XAVRequest', 'AddressKeyFormat');
    const lines = [get(key, 'AddressLine')].flat().map(String);
    const street = (lines[0] ?? '').toUpperCase();
    const zip = String(get(key, 'PostcodePrimaryLow') ?? '');
    const country = String(get(key, 'CountryCode') ?? '');
    const state = String(get(key, 'PoliticalDivision1') ?? '').toUpperCase();
    const response = { ResponseStatus: { Code: '1', Description: 'Success' } };
    // The contract admits US and PR only; UPS files Puerto Rico's addresses under PR, so a US one there matches none.
    const misplaced = country === 'US' && state === 'PR';
    if (/NOWHERE/.test(street) || !/^\d{5}$/.test(zip) || misplaced) return sendJson(res, 200, { XAVResponse: { Response: response, NoCandidatesIndicator: '' } });
    // Odd house numbers are businesses, even ones homes: deterministic, and both kinds are easy to ask for.
    const residential = Number(/^\d+/.exec(street)?.[0] ?? '0') % 2 === 0;
    const classification = residential ? { Code: '2', Description: 'Residential' } : { Code: '1', Description: 'Commercial' };
    const city = String(get(key, 'PoliticalDivision2') ?? '').toUpperCase();
    const candidate = (line: string) => ({
      AddressClassification: classification,
      AddressKeyFormat: {
        AddressLine: fake.singleObjects ? line : [line],
        PoliticalDivision2: city,
        PoliticalDivision1: state,
        PostcodePrimaryLow: zip,
        PostcodeExtendedLow: '1804',
        Region: `${city} ${state} ${zip}-1804`,
        CountryCode: country,
      },
    });
    if (/AMBIGUOUS/.test(street)) {
      const base = street.replace(/\s*AMBIGUOUS\s*/, ' ').trim();
      return sendJson(res, 200, {
        XAVResponse: { Response: response, AmbiguousAddressIndicator: '', AddressClassification: classification, Candidate: [candidate(`${base} N`), candidate(`${base} S`)] },
      });
    }
    sendJson(res, 200, {
      XAVResponse: { Response: response, ValidAddressIndicator: '', AddressClassification: classification, Candidate: list([candidate(street.replace(/\bSTREET\b/, 'ST'))]) },
    });
  }

  async function api(req: IncomingMessage, path: string, query: Record<string, string>, body: unknown, res: ServerResponse): Promise<void> {
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(bearer)) return sendJson(res, 401, errorBody('250002', 'Invalid Authentication Information.'));
    const index = pending.findIndex((p) => path.startsWith(p.pathPrefix));
    const shape = index === -1 ? undefined : pending.splice(index, 1)[0]!.shape;
    if (shape?.kind === 'envelope') return sendJson(res, shape.status, errorBody(shape.code, shape.message));
    if (shape?.kind === 'server_error') return sendJson(res, 500, errorBody('9999', 'General Failure'));
    if (shape?.kind === 'throttled') return sendJson(res, 429, errorBody('429', 'Rate Limit Exceeded'), { 'retry-after': String(shape.retryAfterSeconds) });
    if (shape?.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"RateResponse": {"RatedShipment": [');
    }
    if (shape?.kind === 'slow') await new Promise((r) => setTimeout(r, shape.ms));
    const contract = contractOf(req.method ?? '', path);
    if (contract) {
      const violations = contractViolations(contract, { path, query, headers: specHeaders(req), ...(body === '' ? {} : { body }) });
      if (violations.length > 0) return refuse(res, path, violations);
    }
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && /^\/api\/rating\/v\w+\/(Rate|Shop|Ratetimeintransit|Shoptimeintransit)$/.test(path)) return rate(path, body, res);
    if (req.method === 'POST' && /^\/api\/shipments\/v\w+\/ship$/.test(path)) return ship(path, body, res);
    if (req.method === 'POST' && /^\/api\/labels\/v\w+\/recovery$/.test(path)) return recover(body, res);
    if (req.method === 'DELETE' && (m = /^\/api\/shipments\/v\w+\/void\/cancel\/([^/]+)$/.exec(path))) return cancel(decodeURIComponent(m[1]!), query.trackingnumber, res);
    if (req.method === 'GET' && (m = /^\/api\/track\/v1\/details\/([^/]+)$/.exec(path))) return track(req, decodeURIComponent(m[1]!), res);
    if (req.method === 'POST' && /^\/api\/addressvalidation\/v2\/[123]$/.test(path)) return validate(body, res);
    if (req.method === 'POST' && path === '/api/track/v1/subscription/standard/package') return subscribe(body, res);
    if (req.method === 'POST' && /^\/api\/locations\/v\w+\/search\/availabilities\/64$/.test(path)) return answerLocator(body, res, fake.singleObjects);
    if (pickupApi.handle(req, path, body, res)) return;
    sendJson(res, 404, errorBody('404', `No such UPS resource: ${req.method} ${path}`));
  }

  const server = await serve(async (req, res) => {
    const raw = await readText(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    let body: unknown = raw;
    if (/json/.test(String(req.headers['content-type'] ?? ''))) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, errorBody('10002', 'The request body is not valid JSON'));
      }
    }
    fake.calls.push(recordedCall(req, path, body));
    if (req.method === 'POST' && path === '/security/v1/oauth/token') return token(req, raw, res);
    if (path.startsWith('/api/')) return void api(req, path, Object.fromEntries(url.searchParams), body, res).catch(() => sendJson(res, 500, errorBody('9999', 'General Failure')));
    sendJson(res, 404, errorBody('404', `No such UPS resource: ${req.method} ${path}`));
  });
  return Object.assign(fake, server);
}
