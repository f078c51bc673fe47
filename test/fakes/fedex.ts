/* eslint-disable @typescript-eslint/no-explicit-any -- the fake reads request JSON as loosely as a web server does, field by field */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fedexTrackingNumber } from '../../src/carriers/tracking-numbers.ts';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts, contractViolations } from '../contracts/check.ts';
import { fedexAddressRequest } from '../contracts/fedex/address.ts';
import { fedexTokenForm } from '../contracts/fedex/oauth.ts';
import { fedexRateRequest } from '../contracts/fedex/rate.ts';
import { fedexCancelRequest, fedexShipRequest, synchronousPackages } from '../contracts/fedex/ship.ts';
import { fedexTrackDocumentsRequest, fedexTrackRequest } from '../contracts/fedex/track.ts';
import { fedexEndOfDayRequest } from '../contracts/fedex/end-of-day.ts';
import { endOfDayRoute, type ClosableShipment, type EndOfDayFake } from './fedex-end-of-day.ts';
import { fedexCancelPickupRequest, fedexCreatePickupRequest, fedexPickupAvailabilityRequest } from '../contracts/fedex/pickup.ts';
import { pickupRoutes, type PickupFake } from './fedex-pickup.ts';
import { fedexFindLocationsRequest } from '../contracts/fedex/locations.ts';
import { findLocations, holdLocationRefusal } from './fedex-locations.ts';
import { TrackingPush } from '../contracts/fedex/track-webhook.ts';
import { labelPdf, labelPng } from './label-files.ts';
import { jsonOrText, readText, recordedCall, sendJson, serve, type RecordedCall } from './server.ts';

/** What the next API call (not the token call) answers instead of the normal answer. */
export type FedexFault =
  /** With retryAfter (seconds), a Retry-After header: FedEx's 429s ("Too many requests", its rate limits guide) say when to come back. */
  | { kind: 'error'; status: number; code: string; message: string; retryAfter?: number }
  | { kind: 'status500' }
  | { kind: 'slow'; ms: number }
  | { kind: 'malformed' };

/** A scan as FedEx's push carries it (the Track API's ScanEvent): when, its event type and derived status, and where. */
export interface FedexPushedScan {
  at: Date;
  eventType: string;
  derivedStatusCode: string;
  description: string;
  city: string;
  state: string;
  postalCode: string;
}

/**
 * Posts a tracking push as FedEx's webhook does: the Track API's CompleteTrackResult for the number with these
 * scans (newest first, as FedEx lists them; checked against our schema of TestWebhookOutputVO), signed in
 * `fdx-signature` with Base64(HMAC-SHA256(security token, body)); `securityToken` null sends no signature. FedEx
 * publishes no API to subscribe a number, so the push goes to the URL a webhook project would have been given.
 */
export async function pushFedexTracking(url: string, securityToken: string | null, trackingNumber: string, scans: FedexPushedScan[]): Promise<{ status: number; text: string }> {
  const scanEvents = [...scans]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .map((e) => ({
      date: e.at.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      eventType: e.eventType,
      eventDescription: e.description,
      derivedStatusCode: e.derivedStatusCode,
      scanLocation: { city: e.city, stateOrProvinceCode: e.state, postalCode: e.postalCode, countryCode: 'US' },
    }));
  const latest = scanEvents[0];
  const body = {
    outputMetaData: [{ timeStamp: new Date().toISOString(), attempt: 1 }],
    output: {
      completeTrackResults: [
        {
          trackingNumber,
          trackResults: [
            {
              trackingNumberInfo: { trackingNumber, carrierCode: 'FDXE' },
              latestStatusDetail: { code: latest?.derivedStatusCode ?? '', derivedCode: latest?.derivedStatusCode ?? '', description: latest?.eventDescription ?? '' },
              scanEvents,
            },
          ],
        },
      ],
    },
  };
  const faults = contractViolations(TrackingPush, body);
  if (faults.length > 0) throw new Error(`the FedEx push breaks TestWebhookOutputVO: ${faults.join('; ')}`);
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (securityToken !== null) headers['fdx-signature'] = createHmac('sha256', securityToken).update(text).digest('base64');
  const res = await fetch(url, { method: 'POST', headers, body: text });
  return { status: res.status, text: await res.text() };
}

export interface FedexFake {
  url: string;
  close(): Promise<void>;
  calls: RecordedCall[];
  tokenRequests: number;
  clientId: string;
  clientSecret: string;
  accountNumber: string;
  /** The next API call answers 401 NOT.AUTHORIZED.ERROR, and every token issued so far stops working. */
  expireTokens(): void;
  /** Faults answered by the next API calls, in order. */
  faults: FedexFault[];
  /** Answers with single objects where FedEx promises arrays, and money as strings (the lenient readers' cases). */
  singleObjects: boolean;
  /** Tracking numbers of sold shipments that FedEx has since picked up: a cancel is refused, and tracking shows them moving. */
  tendered: Set<string>;
  /** Numbers shipped by others (labels not bought here), each tracking as one of FedEx's sandbox mock numbers does. */
  parcels: Map<string, string>;
  /** The numbers whose signature proof of delivery was asked for (POST /track/v1/trackingdocuments), in order. */
  spodAsked: string[];
  /** Every package sold, by its tracking number: the shipment it is a piece of (a multiple-piece one's pieces share it). */
  sold: ReadonlyMap<string, SoldShipment>;
  /** The Ground closes made (fedex-end-of-day.ts). */
  endOfDay: EndOfDayFake;
  /** The pickups booked and the refusal knobs (fedex-pickup.ts). */
  pickups: PickupFake;
  /**
   * An account billed in another currency than USD: rates abroad and labels are priced in it. A PREFERRED request
   * for USD gets `preferred` entries in USD (PREFERRED_CURRENCY), or, with `exchange`, the account entry's
   * currencyExchangeRate into USD; with neither, no US-dollar figure at all.
   */
  accountCurrency?: { code: string; usdPerUnit: number; states: 'preferred' | 'exchange' | 'none' };
}

/**
 * A shipment sold: its master tracking number, its pieces' numbers in sequence (the master's first), cancelled or not,
 * and what the Ground close reads of it (fedex-end-of-day.ts).
 */
export type SoldShipment = ClosableShipment;

/** The countries the fake's address check knows streets in; elsewhere it answers CountrySupported false, as FedEx does. */
const checkedAbroad = new Set(['CA', 'MX', 'GB', 'DE', 'FR', 'NL', 'AU', 'JP', 'BR', 'IN']);

const envelope = (code: string, message: string) => ({ transactionId: 'fake-txn', errors: [{ code, message }] });

/**
 * A request that breaks FedEx's published contract (test/contracts/fedex/) is answered as FedEx answers bad input:
 * 400 with its error envelope, the faults in parameterList.
 */
function refuseBreach(res: ServerResponse, schema: TSchema, value: unknown): boolean {
  const faults = contractViolations(schema, value);
  if (faults.length === 0) return false;
  sendJson(res, 400, {
    transactionId: 'fake-txn',
    errors: [{ code: 'INVALID.INPUT.EXCEPTION', message: 'Invalid field value in the input', parameterList: faults.map((f) => ({ key: f.split(' ')[0], value: f })) }],
  });
  return true;
}

/** The services the fake sells: our catalog's six plus one it does not know, with a price and transit each. */
const services = [
  { type: 'FEDEX_GROUND', name: 'FedEx Ground®', base: 1120, days: 3, residential: false },
  { type: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery®', base: 1180, days: 3, residential: true },
  { type: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver®', base: 2300, days: 3 },
  { type: 'FEDEX_2_DAY', name: 'FedEx 2Day®', base: 2650, days: 2 },
  { type: 'FEDEX_2_DAY_AM', name: 'FedEx 2Day® AM', base: 2900, days: 2 },
  { type: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight®', base: 5000, days: 1 },
  { type: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight®', base: 5600, days: 1 },
] as const;

/** Services from the US to another country; International Ground (FEDEX_GROUND) to Canada only. */
const servicesAbroad = (country: string): string[] => ['FEDEX_INTERNATIONAL_PRIORITY', 'INTERNATIONAL_ECONOMY', 'FEDEX_INTERNATIONAL_CONNECT_PLUS', ...(country === 'CA' ? ['FEDEX_GROUND'] : [])];

/**
 * What FedEx refuses abroad beyond the schema: an HS code that is not 6 to 10 digits, a commodity value that does
 * not add up to its quantity times its unit price, a customs total other than the commodities' sum, and a line of
 * more than $2,500 whose export statement is an exemption instead of an ITN (15 CFR 30.37(a)).
 */
function abroadRefusal(shipment: Record<string, any>): { code: string; message: string } | undefined {
  const customs = shipment.customsClearanceDetail ?? {};
  const commodities: Record<string, any>[] = customs.commodities ?? [];
  const cents = (n: unknown) => Math.round(Number(n) * 100);
  for (const c of commodities) {
    if (c.harmonizedCode !== undefined && !/^[0-9]{6,10}$/.test(String(c.harmonizedCode))) return { code: 'COMMODITY.HARMONIZEDCODE.INVALID', message: 'Harmonized code is invalid.' };
    if (c.unitPrice && c.customsValue && cents(c.unitPrice.amount) * Number(c.quantity) !== cents(c.customsValue.amount)) return { code: 'COMMODITY.CUSTOMSVALUE.MISMATCH', message: 'Customs value does not equal quantity times unit price.' };
  }
  const sum = commodities.reduce((t, c) => t + cents(c.customsValue?.amount), 0);
  if (customs.totalCustomsValue && cents(customs.totalCustomsValue.amount) !== sum) return { code: 'CUSTOMSVALUE.TOTAL.MISMATCH', message: 'Total customs value does not equal the sum of the commodities.' };
  const statement = String(customs.exportDetail?.exportComplianceStatement ?? '');
  if (commodities.some((c) => c.customsValue?.currency === 'USD' && Number(c.customsValue.amount) > 2500) && !statement.startsWith('AES')) {
    return { code: 'EXPORTDETAIL.ITN.REQUIRED', message: 'An ITN is required for a commodity valued over 2,500 USD.' };
  }
  return undefined;
}

/**
 * The ship document's rule on declared values beyond the schema: totalDeclaredValue "must be equal to the sum of all
 * the individual declaredValues", and they "must match in all currencies in one shipment".
 */
function declaredValueRefusal(shipment: Record<string, any>): { code: string; message: string } | undefined {
  const total = shipment.totalDeclaredValue;
  const values = ((shipment.requestedPackageLineItems ?? []) as Record<string, any>[]).flatMap((p) => (p.declaredValue ? [p.declaredValue] : []));
  if (!total && values.length === 0) return undefined;
  const cents = (n: unknown) => Math.round(Number(n) * 100);
  const sum = values.reduce((t, v) => t + cents(v.amount), 0);
  if (!total || cents(total.amount) !== sum || values.some((v) => v.currency !== total.currency)) {
    return { code: 'TOTALDECLAREDVALUE.MISMATCH', message: 'Total declared value does not equal the sum of the package declared values in one currency.' };
  }
  return undefined;
}

/** The packages a shipment's line items stand for, in sequence: each item groupPackageCount times ("identical package(s)"), else once. */
const packagesOf = (shipment: Record<string, any>): Record<string, any>[] =>
  ((shipment.requestedPackageLineItems ?? []) as Record<string, any>[]).flatMap((item) => Array.from({ length: Number(item.groupPackageCount ?? 1) }, () => item));

/**
 * What FedEx refuses in a shipment's packages beyond the schema, in the rate and ship documents' own words: a
 * totalPackageCount other than "the total number of packages in the shipment"; sequence numbers, "a unique
 * identifier of each requested package", that repeat or whose master is not 1; in one synchronous Create Shipment
 * call, more than 40 packages ("Must provide element with value ALLOW_ASYNCHRONOUS when groupPackageCount is greater
 * than 40"); and a dry-ice shipment detail whose packageCount ("packages in the shipment that contain dry ice") or
 * total weight is not the packages' own. The message on the counts is FedEx Web Services' (error 2021); the codes are
 * the fake's own.
 */
function packageRefusal(body: Record<string, any>, api: 'rate' | 'ship'): { code: string; message: string } | undefined {
  const shipment = body.requestedShipment ?? {};
  const packages = packagesOf(shipment);
  const sequenced = ((shipment.requestedPackageLineItems ?? []) as Record<string, any>[]).flatMap((p) => (p.sequenceNumber === undefined ? [] : [Number(p.sequenceNumber)]));
  const countWrong = shipment.totalPackageCount !== undefined && Number(shipment.totalPackageCount) !== packages.length;
  if (countWrong || new Set(sequenced).size !== sequenced.length || (sequenced.length > 0 && sequenced[0] !== 1)) {
    return { code: 'PACKAGECOUNT.SEQUENCENUMBER.INVALID', message: 'Invalid package count or invalid package sequence number.' };
  }
  if (api === 'ship' && packages.length > synchronousPackages && body.processingOptionType !== 'ALLOW_ASYNCHRONOUS') {
    return { code: 'PROCESSINGOPTIONTYPE.ASYNCHRONOUS.REQUIRED', message: `More than ${synchronousPackages} packages need processingOptionType ALLOW_ASYNCHRONOUS.` };
  }
  const iced = packages.filter((p) => p.packageSpecialServices?.specialServiceTypes?.includes('DRY_ICE'));
  const dryIce = shipment.shipmentSpecialServices?.shipmentDryIceDetail;
  if (dryIce) {
    const kg = iced.reduce((sum, p) => sum + Number(p.packageSpecialServices.dryIceWeight?.value ?? 0), 0);
    const weighed = dryIce.totalWeight === undefined || Math.abs(Number(dryIce.totalWeight.value) - kg) < 0.05;
    if (Number(dryIce.packageCount) !== iced.length || !weighed) return { code: 'DRYICE.PACKAGECOUNT.INVALID', message: 'Dry ice package count or total weight does not match the packages with dry ice.' };
  }
  return undefined;
}

const words = ['ONE_DAY', 'TWO_DAYS', 'THREE_DAYS'];

function addWeekdays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

const scan = (date: string, eventType: string, eventDescription: string, city: string, state: string, postalCode: string) => ({
  date,
  eventType,
  eventDescription,
  derivedStatusCode: eventType,
  scanLocation: { city, stateOrProvinceCode: state, postalCode, countryCode: 'US' },
  locationType: 'FEDEX_FACILITY',
});

/** FedEx's sandbox mock numbers (carriers.md 4.6), each with its scenario; scans newest first, as FedEx lists them. */
const mockTracking: Record<string, { code: string; description: string; scans: ReturnType<typeof scan>[]; estimate?: string }> = {
  '449044304137821': {
    code: 'OC',
    description: 'Shipment information sent to FedEx',
    scans: [scan('2024-05-01T09:12:00-05:00', 'OC', 'Shipment information sent to FedEx', 'MEMPHIS', 'TN', '38118')],
    estimate: '2024-05-03T20:00:00-07:00',
  },
  '568838414941': {
    code: 'DP',
    description: 'Departed FedEx location',
    scans: [
      scan('2024-05-02T03:40:00-05:00', 'DP', 'Departed FedEx location', 'MEMPHIS', 'TN', '38118'),
      scan('2024-05-01T18:05:00-05:00', 'AR', 'Arrived at FedEx location', 'MEMPHIS', 'TN', '38118'),
      scan('2024-05-01T15:30:00-05:00', 'PU', 'Picked up', 'NASHVILLE', 'TN', '37201'),
    ],
    estimate: '2024-05-03T20:00:00-07:00',
  },
  '039813852990618': {
    code: 'OD',
    description: 'On FedEx vehicle for delivery',
    scans: [
      scan('2024-05-03T07:55:00-07:00', 'OD', 'On FedEx vehicle for delivery', 'SAN FRANCISCO', 'CA', '94107'),
      scan('2024-05-02T08:10:00-05:00', 'PU', 'Picked up', 'MEMPHIS', 'TN', '38118'),
    ],
    estimate: '2024-05-03T20:00:00-07:00',
  },
  '581190049992': {
    code: 'DL',
    description: 'Delivered',
    scans: [
      scan('2024-05-03T14:02:00-07:00', 'DL', 'Delivered', 'SAN FRANCISCO', 'CA', '94105'),
      scan('2024-05-03T07:55:00-07:00', 'OD', 'On FedEx vehicle for delivery', 'SAN FRANCISCO', 'CA', '94107'),
      scan('2024-05-01T15:30:00-05:00', 'PU', 'Picked up', 'MEMPHIS', 'TN', '38118'),
    ],
  },
  '957794015041323': {
    code: 'RS',
    description: 'Returning package to shipper',
    scans: [
      scan('2024-05-06T10:00:00-07:00', 'RS', 'Returning package to shipper', 'SAN FRANCISCO', 'CA', '94107'),
      scan('2024-05-03T12:00:00-07:00', 'DE', 'Incorrect address', 'SAN FRANCISCO', 'CA', '94107'),
    ],
  },
  '122816215025810': {
    code: 'HL',
    description: 'Ready for pickup at FedEx location',
    scans: [scan('2024-05-03T09:00:00-07:00', 'HL', 'Ready for pickup at FedEx location', 'OAKLAND', 'CA', '94607')],
  },
  '843119172384577': {
    code: 'CA',
    description: 'Shipment cancelled by sender',
    scans: [scan('2024-05-01T11:00:00-05:00', 'CA', 'Shipment cancelled by sender', 'MEMPHIS', 'TN', '38118')],
  },
};

/**
 * A FedEx REST API on 127.0.0.1 speaking carriers.md section 4: form-body client credentials on /oauth/token
 * (HTTP Basic alone is refused), bearer tokens on every API call, the documented paths, fields, field types and
 * error envelope, per-number tracking errors inside HTTP 200 (section 8.5), and knobs for the failure shapes.
 */
export async function startFedexFake(): Promise<FedexFake> {
  const tokens = new Set<string>();
  const sold = new Map<string, SoldShipment>();
  const endOfDay = endOfDayRoute(() => sold.values());
  const pickups = pickupRoutes();
  let expireNext = false;
  let sequence = 0;
  const fake: Omit<FedexFake, 'url' | 'close'> = {
    calls: [],
    tokenRequests: 0,
    clientId: 'fake-fedex-api-key',
    clientSecret: 'fake-fedex-secret',
    accountNumber: '740561073',
    faults: [],
    parcels: new Map(),
    spodAsked: [],
    singleObjects: false,
    tendered: new Set(),
    sold,
    endOfDay: endOfDay.state,
    pickups: pickups.state,
    expireTokens() {
      tokens.clear();
      expireNext = true;
    },
  };
  const many = <T>(items: T[]): T[] | T => (fake.singleObjects && items.length === 1 ? items[0]! : items);
  const money = (cents: number): number | string => (fake.singleObjects ? (cents / 100).toFixed(2) : cents / 100);

  function token(req: IncomingMessage, raw: string, res: ServerResponse): void {
    fake.tokenRequests++;
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return sendJson(res, 415, envelope('INVALID.INPUT.EXCEPTION', 'Content-Type must be application/x-www-form-urlencoded'));
    }
    const form = new URLSearchParams(raw);
    if (refuseBreach(res, fedexTokenForm, Object.fromEntries(form))) return;
    if (form.get('grant_type') !== 'client_credentials') return sendJson(res, 400, envelope('INVALID.INPUT.EXCEPTION', 'grant_type is missing or not supported'));
    if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) {
      return sendJson(res, 401, envelope('NOT.AUTHORIZED.ERROR', 'The given client credentials were not valid. Please modify your request and try again.'));
    }
    const value = `fedex-token-${++sequence}`;
    tokens.add(value);
    sendJson(res, 200, { access_token: value, token_type: 'bearer', expires_in: 3599, scope: 'CXS' });
  }

  function rate(body: Record<string, any>, res: ServerResponse): void {
    const shipment = body.requestedShipment ?? {};
    const to = shipment.recipient?.address ?? {};
    const country = String(to.countryCode ?? 'US');
    if (country === 'US' && !/^\d{5}(-?\d{4})?$/.test(String(to.postalCode ?? ''))) {
      return sendJson(res, 400, envelope('RECIPIENT.POSTALCODE.INVALID', 'Recipient postal code is invalid.'));
    }
    const refused = (country === 'US' ? undefined : abroadRefusal(shipment)) ?? packageRefusal(body, 'rate');
    if (refused) return sendJson(res, 400, envelope(refused.code, refused.message));
    // Each package is priced on its own billable pounds and the shipment is their sum, as the simulators price boxes.
    const billables = packagesOf(shipment).map((p) => Math.ceil(Number(p.weight?.value ?? 0)));
    const shipDate = String(shipment.shipDateStamp ?? '2024-05-01');
    const billable = billables.reduce((sum, lb) => sum + lb, 0);
    const abroad = servicesAbroad(country).map((type, i) => ({ type, name: type, base: 6400 + 1500 * i, days: 3 + i }));
    const offered = (country === 'US' ? services : abroad).filter(
      (s) => (!shipment.serviceType || s.type === shipment.serviceType) && (!('residential' in s) || s.residential === Boolean(to.residential)),
    );
    const foreign = country === 'US' ? undefined : fake.accountCurrency;
    const wantsUsd = foreign && (shipment.rateRequestType ?? []).includes('PREFERRED') && shipment.preferredCurrency === 'USD';
    const rateReplyDetails = offered.map((s) => {
      const account = s.base * billables.length + billable * 100;
      const list = Math.round(account * 1.25);
      // Surcharges inside the net charge, as RateQuotes-Resource.json's examples itemize them (type, description, amount).
      const surCharges = (cents: number) => [
        { type: 'FUEL', description: 'Fuel Surcharge', level: 'PACKAGE', amount: money(Math.round(cents * 0.1)) },
        ...(to.residential ? [{ type: 'RESIDENTIAL_DELIVERY', description: 'Residential delivery charge', level: 'PACKAGE', amount: money(Math.round(cents * 0.08)) }] : []),
      ];
      const rated = (rateType: string, cents: number, currency = foreign?.code ?? 'USD') => ({
        rateType,
        totalNetCharge: money(cents),
        totalBaseCharge: money(cents),
        currency,
        shipmentRateDetail: {
          rateZone: '5',
          dimDivisor: 139,
          totalBillingWeight: { units: 'LB', value: billable },
          currency,
          surCharges: many(surCharges(cents)),
          ...(wantsUsd && foreign.states === 'exchange' && currency !== 'USD' && { currencyExchangeRate: { fromCurrency: foreign.code, intoCurrency: 'USD', rate: foreign.usdPerUnit } }),
        },
      });
      const inUsd = (cents: number) => Math.round(cents * (foreign?.usdPerUnit ?? 1));
      const preferred = wantsUsd && foreign.states === 'preferred' ? [rated('PREFERRED_CURRENCY', inUsd(account), 'USD')] : [];
      const ground = s.type === 'FEDEX_GROUND' || s.type === 'GROUND_HOME_DELIVERY';
      // FedEx leaves the transit data out for some services: Express Saver here.
      const transit =
        s.type === 'FEDEX_EXPRESS_SAVER'
          ? {}
          : ground
            ? { commit: { transitDays: { minimumTransitTime: words[s.days - 1], description: `${s.days} Business Days` } }, operationalDetail: { transitTime: words[s.days - 1] } }
            : { commit: { dateDetail: { dayOfWeek: 'FRI', dayFormat: `${addWeekdays(shipDate, s.days)}T10:30:00` } } };
      return {
        serviceType: s.type,
        serviceName: s.name,
        packagingType: 'YOUR_PACKAGING',
        // The list entry first: the account's price is the ACCOUNT entry wherever it stands.
        ratedShipmentDetails: many(fake.singleObjects ? [rated('ACCOUNT', account)] : [...preferred, rated('LIST', list), rated('ACCOUNT', account)]),
        // Ground answers carry the transit word; Express answers the commit date, as FedEx's do.
        ...transit,
      };
    });
    sendJson(res, 200, { transactionId: 'fake-txn', output: { quoteDate: shipDate, rateReplyDetails: many(rateReplyDetails), alerts: [] } });
  }

  function ship(body: Record<string, any>, res: ServerResponse): void {
    const shipment = body.requestedShipment ?? {};
    const spec = shipment.labelSpecification ?? {};
    const country = String(shipment.recipients?.[0]?.address?.countryCode ?? 'US');
    const sells = country === 'US' ? services.some((s) => s.type === shipment.serviceType) : servicesAbroad(country).includes(shipment.serviceType);
    if (!sells) return sendJson(res, 400, envelope('SERVICETYPE.NOT.ALLOWED', 'This service type is not allowed.'));
    const refusedAbroad = country === 'US' ? undefined : abroadRefusal(shipment);
    if (refusedAbroad) return sendJson(res, 400, envelope(refusedAbroad.code, refusedAbroad.message));
    const declared = declaredValueRefusal(shipment) ?? packageRefusal(body, 'ship') ?? holdLocationRefusal(shipment);
    if (declared) return sendJson(res, 400, envelope(declared.code, declared.message));
    if (spec.imageType === 'EPL2') return sendJson(res, 400, envelope('LABELSPECIFICATION.IMAGETYPE.INVALID', 'The fake prints no EPL2 labels.'));
    // A multiple-piece shipment is filed under its first package's number, its master (the first package in the
    // request "is considered the master package"); every package has its own number and label.
    const numbers = packagesOf(shipment).map(() => fedexTrackingNumber(String(79400000000 + ++sequence)));
    const trackingNumber = numbers[0]!;
    const record: SoldShipment = { master: trackingNumber, pieces: numbers, cancelled: false, serviceType: String(shipment.serviceType), shipDate: String(shipment.shipDatestamp) };
    for (const n of numbers) sold.set(n, record);
    const image = (n: string): Buffer => (spec.imageType === 'PDF' ? labelPdf(n) : spec.imageType === 'PNG' ? labelPng() : Buffer.from(`^XA^FO50,50^BCN,100^FD${n}^FS^XZ`));
    // Each package is charged the same here; the shipment's rating is their sum.
    const cents = 2650;
    const billedIn = country === 'US' ? 'USD' : (fake.accountCurrency?.code ?? 'USD');
    const listCents = 3300;
    const level = numbers.length > 1 ? 'SHIPMENT' : 'PACKAGE';
    sendJson(res, 200, {
      transactionId: 'fake-txn',
      output: {
        transactionShipments: many([
          {
            masterTrackingNumber: trackingNumber,
            serviceType: shipment.serviceType,
            shipDatestamp: shipment.shipDatestamp,
            pieceResponses: many(
              numbers.map((n, i) => ({
                trackingNumber: n,
                masterTrackingNumber: trackingNumber,
                packageSequenceNumber: i + 1,
                netChargeAmount: money(cents),
                packageDocuments: many([{ contentType: 'LABEL', docType: spec.imageType, copiesToPrint: 1, trackingNumber: n, encodedLabel: image(n).toString('base64') }]),
              })),
            ),
            // The invoice asked for in shippingDocumentSpecification, printed (or, with ETD, uploaded and returned too).
            ...(shipment.shippingDocumentSpecification?.shippingDocumentTypes?.includes('COMMERCIAL_INVOICE')
              ? { shipmentDocuments: many([{ contentType: 'COMMERCIAL_INVOICE', docType: 'PDF', copiesToPrint: 3, encodedLabel: Buffer.from(`%PDF-1.4\n% FedEx commercial invoice ${trackingNumber}\n%%EOF\n`).toString('base64') }]) }
              : {}),
            ...(shipment.shipmentSpecialServices?.specialServiceTypes?.includes('ELECTRONIC_TRADE_DOCUMENTS') ? { completedEtdDetail: { folderId: `etd-${trackingNumber}`, type: 'COMMERCIAL_INVOICE' } } : {}),
            completedShipmentDetail: {
              masterTrackingId: { trackingNumber, formId: '0201', trackingIdType: 'FEDEX' },
              // The list entry first, as FedEx may order them: actualRateType names the one charged.
              shipmentRating: {
                actualRateType: `PAYOR_ACCOUNT_${level}`,
                shipmentRateDetails: many([
                  ...(fake.singleObjects ? [] : [{ rateType: `PAYOR_LIST_${level}`, totalNetCharge: money(listCents * numbers.length), currency: billedIn }]),
                  { rateType: `PAYOR_ACCOUNT_${level}`, totalNetCharge: money(cents * numbers.length), currency: billedIn },
                ]),
              },
              carrierCode: 'FDXE',
            },
          },
        ]),
      },
    });
  }

  /** DELETE_ALL_PACKAGES "will cancel all tracking numbers associated to the shipment": any one of them names it. */
  function cancel(body: Record<string, any>, res: ServerResponse): void {
    const number = String(body.trackingNumber ?? '');
    const known = sold.get(number);
    if (!known) return sendJson(res, 404, envelope('TRACKING.TRACKINGNUMBER.NOTFOUND', 'Tracking number cannot be found.'));
    if (known.cancelled) return sendJson(res, 200, { transactionId: 'fake-txn', output: { cancelledShipment: false, cancelledHistory: true, message: 'Shipment has already been cancelled.' } });
    if (known.pieces.some((n) => fake.tendered.has(n))) {
      return sendJson(res, 200, { transactionId: 'fake-txn', output: { cancelledShipment: false, cancelledHistory: false, message: 'Shipment has already been tendered to FedEx and cannot be cancelled.' } });
    }
    known.cancelled = true;
    sendJson(res, 200, { transactionId: 'fake-txn', output: { cancelledShipment: true, cancelledHistory: true, successMessage: 'Success' } });
  }

  function track(body: Record<string, any>, res: ServerResponse): void {
    const infos: any[] = body.trackingInfo ?? [];
    if (infos.length === 0) return sendJson(res, 400, envelope('TRACKING.TRACKINGNUMBER.EMPTY', 'Please provide tracking number.'));
    const completeTrackResults = infos.map((i) => {
      const number = String(i.trackingNumberInfo?.trackingNumber ?? '');
      // A label sold here tracks as information sent to FedEx until it is tendered, then as picked up and moving.
      const mock = mockTracking[fake.parcels.get(number) ?? number] ?? (sold.has(number) ? mockTracking[fake.tendered.has(number) ? '568838414941' : '449044304137821'] : undefined);
      const result = mock
        ? {
            trackingNumberInfo: { trackingNumber: number, carrierCode: 'FDXE' },
            latestStatusDetail: { code: mock.code, derivedCode: mock.code, statusByLocale: mock.description, description: mock.description },
            dateAndTimes: mock.estimate ? [{ type: 'ESTIMATED_DELIVERY', dateTime: mock.estimate }] : [],
            scanEvents: mock.scans,
            ...(mock.code === 'DL' && { availableImages: [{ type: 'SIGNATURE_PROOF_OF_DELIVERY', size: 'SMALL' }] }),
          }
        : { trackingNumberInfo: { trackingNumber: number }, error: { code: 'TRACKING.TRACKINGNUMBER.NOTFOUND', message: 'Tracking number cannot be found. Please correct the tracking number and try again.' } };
      return { trackingNumber: number, trackResults: many([result]) };
    });
    sendJson(res, 200, { transactionId: 'fake-txn', output: { completeTrackResults: many(completeTrackResults) } });
  }

  /** A delivered mock number's SPOD letter, as a PDF (the format asked for); for any other number, FedEx's alert and no document. */
  function trackDocuments(body: Record<string, any>, res: ServerResponse): void {
    const number = String(body.trackDocumentSpecification[0].trackingNumberInfo.trackingNumber);
    fake.spodAsked.push(number);
    const delivered = mockTracking[fake.parcels.get(number) ?? number]?.code === 'DL';
    const format = String(body.trackDocumentDetail.documentFormat ?? 'PDF');
    if (!delivered) return sendJson(res, 200, { transactionId: 'fake-txn', output: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: format, document: [], alerts: [{ code: 'TRACKING.DATA.NOTFOUND', message: 'Tracking data unavailable' }] } });
    const letter = Buffer.from(`%PDF-1.4\n% FedEx signature proof of delivery ${number}\n%%EOF\n`);
    sendJson(res, 200, { transactionId: 'fake-txn', output: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: format, document: [letter.toString('base64')] } });
  }

  function resolve(body: Record<string, any>, res: ServerResponse): void {
    const resolvedAddresses = (body.addressesToValidate ?? []).map((entry: any) => {
      const a = entry.address ?? {};
      const street: string[] = a.streetLines ?? [];
      const found = !/nowhere/i.test(street.join(' '));
      const attr = (v: boolean | string) => (fake.singleObjects ? String(v) : v);
      const country = String(a.countryCode ?? 'US');
      if (country !== 'US') {
        // Abroad FedEx resolves against its own address data where it has some: no DPV, no ZIP+4.
        const supported = checkedAbroad.has(country);
        return {
          streetLinesToken: street.map((s) => s.toUpperCase()),
          city: String(a.city ?? '').toUpperCase(),
          ...(a.stateOrProvinceCode && { stateOrProvinceCode: a.stateOrProvinceCode }),
          countryCode: country,
          postalCodeToken: { changed: false, value: String(a.postalCode).toUpperCase() },
          classification: supported && found ? 'BUSINESS' : 'UNKNOWN',
          customerMessage: [],
          attributes: { CountrySupported: attr(supported), ValidlyFormed: attr(true), Resolved: attr(supported && found), Matched: attr(supported && found), DPV: attr(false) },
        };
      }
      return {
        streetLinesToken: street.map((s) => s.toUpperCase()),
        city: String(a.city ?? '').toUpperCase(),
        stateOrProvinceCode: a.stateOrProvinceCode,
        countryCode: 'US',
        postalCodeToken: { changed: true, value: `${a.postalCode}-1804` },
        parsedPostalCode: { base: String(a.postalCode).slice(0, 5), addOn: '1804', deliveryPoint: '15' },
        classification: found ? 'BUSINESS' : 'UNKNOWN',
        customerMessage: found ? [] : ['PARTIAL.STREET.MATCH'],
        attributes: { AddressType: found ? 'STANDARDIZED' : 'RAW', DPV: attr(found), Resolved: attr(found), Matched: attr(found) },
      };
    });
    sendJson(res, 200, { transactionId: 'fake-txn', output: { resolvedAddresses: many(resolvedAddresses), alerts: [] } });
  }

  /**
   * Each route's request contract and answer; `account` reads the account number where the request puts it (the
   * Pickup API's associatedAccountNumber, a plain string in its availability call), null where it sends none.
   */
  const routes: Record<string, { contract: TSchema; answer: (body: Record<string, any>, res: ServerResponse, req: IncomingMessage) => void; account?: (body: Record<string, any>) => unknown }> = {
    'POST /rate/v1/rates/quotes': { contract: fedexRateRequest, answer: rate },
    'POST /ship/v1/shipments': { contract: fedexShipRequest, answer: ship },
    'PUT /ship/v1/shipments/cancel': { contract: fedexCancelRequest, answer: cancel },
    'POST /track/v1/trackingnumbers': { contract: fedexTrackRequest, answer: track },
    'POST /track/v1/trackingdocuments': { contract: fedexTrackDocumentsRequest, answer: trackDocuments },
    'POST /address/v1/addresses/resolve': { contract: fedexAddressRequest, answer: resolve },
    'PUT /ship/v1/endofday/': { contract: fedexEndOfDayRequest, answer: endOfDay.answer },
    'POST /pickup/v1/pickups/availabilities': { contract: fedexPickupAvailabilityRequest, answer: pickups.availability, account: (b) => b.associatedAccountNumber ?? null },
    'POST /pickup/v1/pickups': {
      contract: fedexCreatePickupRequest,
      answer: (b, res, req) => pickups.create(b, res, (req.headers['x-customer-transaction-id'] as string | undefined) ?? null),
      account: (b) => b.associatedAccountNumber?.value,
    },
    'PUT /pickup/v1/pickups/cancel': { contract: fedexCancelPickupRequest, answer: pickups.cancel, account: (b) => b.associatedAccountNumber?.value },
    'POST /location/v1/locations': { contract: fedexFindLocationsRequest, answer: findLocations, account: () => null },
  };

  compileContracts([fedexTokenForm, ...Object.values(routes).map((r) => r.contract)]);
  const server = await serve(async (req, res) => {
    const raw = await readText(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const body = jsonOrText(raw);
    fake.calls.push(recordedCall(req, path, body));
    if (req.method === 'POST' && path === '/oauth/token') return token(req, raw, res);
    const route = routes[`${req.method} ${path}`];
    if (!route) return sendJson(res, 404, envelope('NOT.FOUND.ERROR', 'The resource you requested is no longer available.'));
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (expireNext || !bearer || !tokens.has(bearer)) {
      expireNext = false;
      return sendJson(res, 401, envelope('NOT.AUTHORIZED.ERROR', 'Access token expired. Please modify your request and try again.'));
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return sendJson(res, 415, envelope('INVALID.INPUT.EXCEPTION', 'content-type must be application/json'));
    const fault = fake.faults.shift();
    if (fault?.kind === 'error') return sendJson(res, fault.status, envelope(fault.code, fault.message), fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) });
    if (fault?.kind === 'status500') return sendJson(res, 500, envelope('INTERNAL.SERVER.ERROR', 'We encountered an unexpected error and are working to resolve the issue.'));
    if (fault?.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"transactionId":"fake-txn","output":{"rateReplyDetails":[{"serviceType":');
    }
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
    if (res.destroyed) return;
    if (body === null || typeof body !== 'object') return sendJson(res, 400, envelope('INVALID.INPUT.EXCEPTION', 'The request body is not JSON.'));
    if (refuseBreach(res, route.contract, body)) return;
    const account = route.account ? route.account(body as Record<string, any>) : (body as { accountNumber?: { value?: unknown } }).accountNumber?.value;
    if (!path.startsWith('/track/v1/') && path !== '/address/v1/addresses/resolve' && account !== null && account !== fake.accountNumber) {
      return sendJson(res, 400, envelope('ACCOUNT.NUMBER.MISMATCH', 'The account number in the request does not match the credentials.'));
    }
    route.answer(body as Record<string, any>, res, req);
  });
  return Object.assign(fake, server);
}
