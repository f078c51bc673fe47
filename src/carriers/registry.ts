import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { CarrierId, Config } from '../config.ts';
import type { Mode } from '../kernel/mode.ts';
import type { Clock } from '../kernel/clock.ts';
import { failure, type Carrier, type CarrierResult } from './carrier.ts';
import { carrierCatalog, carrierName } from './catalog.ts';
import { SimulatedCarrier } from './sim/simulator.ts';
import { simTables } from './sim/tables.ts';
import { UpsCarrier } from './ups/adapter.ts';
import { UspsCarrier } from './usps/adapter.ts';
import { FedexCarrier } from './fedex/adapter.ts';
import type { LiveCarrierOptions, LiveCredentials } from './live/options.ts';
import { credentialValues, redactText } from './live/redact.ts';


function byId(list: Carrier[]): Record<CarrierId, Carrier> {
  const out = {} as Record<CarrierId, Carrier>;
  for (const c of list) out[c.id] = c;
  return out;
}

/**
 * One set of simulators per clock and tracking speed: a test that moves its clock moves its carriers' tracking
 * too, and two configurations in one process each keep their own speed.
 */
const simulators = new WeakMap<Clock, Map<string, Record<CarrierId, Carrier>>>();

function simulatorsFor(clock: Clock, config: Config): Record<CarrierId, Carrier> {
  const { simTrackingSpeed: trackingSpeed, simFirstScanAfterMs: firstScanAfterMs, simLabelMs: labelMs, simAccountDiscounts: discounts } = config;
  let bySettings = simulators.get(clock);
  if (!bySettings) {
    bySettings = new Map();
    simulators.set(clock, bySettings);
  }
  const key = `${trackingSpeed}|${firstScanAfterMs}|${labelMs}|${discounts.ups ?? ''}|${discounts.fedex ?? ''}`;
  let set = bySettings.get(key);
  if (!set) {
    set = byId(simTables.map((t) => new SimulatedCarrier(t, clock, { trackingSpeed, firstScanAfterMs, labelMs, ...(t.id !== 'usps' && { accountDiscount: discounts[t.id] }) })));
    bySettings.set(key, set);
  }
  return set;
}

const liveAdapterClasses = { ups: UpsCarrier, usps: UspsCarrier, fedex: FedexCarrier } as const;

/** A live carrier without usable credentials: it says why, per carrier, instead of failing the whole request. */
export class UncredentialedCarrier implements Carrier {
  readonly name: string;
  readonly services: Carrier['services'];
  readonly usable = false;
  /**
   * Where the carrier's live adapter asks it for pickup availability, the answer says which credentials are missing,
   * as a booking's does; where it has no such call (UPS), there is none here either.
   */
  readonly pickupAvailability?: () => Promise<CarrierResult<never>>;
  idempotentPurchase(): boolean {
    return true;
  }

  constructor(
    readonly id: CarrierId,
    private readonly reason: string,
  ) {
    const info = carrierCatalog.find((c) => c.id === id)!;
    this.name = info.name;
    this.services = info.services;
    if ('pickupAvailability' in liveAdapterClasses[id].prototype) this.pickupAvailability = async () => failure('credentials_missing', this.reason);
  }

  async findLocations(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  async rate(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  async purchase(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  async void(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  async track(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  readonly trackingBatchLimit = 1;

  async trackNumbers(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  // Every carrier books pickups with live keys: without credentials the answer says which are missing, not that
  // the carrier has no pickups through shipd.
  async schedulePickup(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }

  async cancelPickup(): Promise<CarrierResult<never>> {
    return failure('credentials_missing', this.reason);
  }
}

const adapters: Record<CarrierId, (options: LiveCarrierOptions) => Carrier> = {
  ups: (o) => new UpsCarrier(o),
  usps: (o) => new UspsCarrier(o),
  fedex: (o) => new FedexCarrier(o),
};

/**
 * Live adapters by credentials: each holds a connection pool and a token cache, so one set of credentials gets one
 * adapter for the life of the process, not one per request.
 */
const liveAdapters = new WeakMap<Clock, Map<string, Carrier>>();
let traceLog: Logger | undefined;

/** Where live adapters write their redacted carrier traces (at debug level). */
export function setCarrierTraceLog(log: Logger): void {
  traceLog = log;
}

/** Whose credentials a live adapter uses: the account's own carrier account's, or the platform's from config. */
type Whose = 'own' | 'platform';

/** Where to mend credentials a carrier refused: the settings the platform's come from. */
const platformSettings: Record<CarrierId, string> = {
  ups: 'UPS_CLIENT_ID, UPS_CLIENT_SECRET and UPS_ACCOUNT_NUMBER',
  usps: "USPS_CLIENT_ID, USPS_CLIENT_SECRET and the app's API products",
  fedex: 'FEDEX_CLIENT_ID, FEDEX_CLIENT_SECRET and FEDEX_ACCOUNT_NUMBER',
};

function mendAdvice(id: CarrierId, whose: Whose): string {
  return whose === 'own'
    ? `check the account's own ${carrierName(id)} credentials (PATCH /carrier-accounts/{id} with new ones)`
    : `check the server's ${platformSettings[id]}`;
}

/**
 * The adapter with every failure's detail cleared of its credential values. A detail quotes the carrier's own words
 * ("Invalid Client Id: …") and reaches answers (a rate's errors, a failed connection test), logs and stored rows;
 * credentials never do. Refused credentials are sent to be mended where they come from: the merchant's carrier
 * account or the server's settings. A Proxy, so that every method, the optional and adapter-specific ones too, is
 * covered.
 */
function quotingNoCredentials(adapter: Carrier, credentials: LiveCredentials, whose: Whose): Carrier {
  const secrets = credentialValues(adapter.id, credentials);
  const advice = mendAdvice(adapter.id, whose);
  const clean = (result: unknown) => {
    const r = result as CarrierResult<unknown> | undefined;
    if (!r || typeof r !== 'object' || r.ok !== false || typeof r.error?.detail !== 'string') return result;
    const detail = redactText(r.error.detail, secrets);
    return { ...r, error: { ...r.error, detail: r.error.credentialsRefused ? `${detail}; ${advice}` : detail } };
  };
  return new Proxy(adapter, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = value.apply(target, args);
        return out instanceof Promise ? out.then(clean) : out;
      };
    },
  });
}

function liveAdapter(id: CarrierId, credentials: LiveCredentials, whose: Whose, config: Config, clock: Clock): Carrier {
  let byKey = liveAdapters.get(clock);
  if (!byKey) {
    byKey = new Map();
    liveAdapters.set(clock, byKey);
  }
  const baseUrl = config.carriers[id].baseUrl;
  const secretHash = createHash('sha256').update(credentials.clientSecret).digest('hex');
  const mailer = [credentials.crid ?? '', credentials.mid ?? '', credentials.manifestMid ?? ''];
  const key = [id, whose, baseUrl, credentials.clientId, secretHash, credentials.accountNumber ?? '', ...mailer, config.carrierTimeoutMs].join('|');
  let adapter = byKey.get(key);
  if (!adapter) {
    adapter = quotingNoCredentials(adapters[id]({ credentials, baseUrl, timeoutMs: config.carrierTimeoutMs, clock, ...(traceLog && { log: traceLog.child({ component: 'carrier' }) }) }), credentials, whose);
    byKey.set(key, adapter);
  }
  return adapter;
}

/**
 * The carriers a key of this mode talks to: simulators in test mode; in live mode each carrier's REST API with the
 * account's own credentials where it connected some (`own`), else the platform's from config.
 */
export function carriersFor(
  mode: Mode,
  config: Config,
  clock: Clock,
  own: Partial<Record<CarrierId, LiveCredentials>> = {},
  unreadable: readonly CarrierId[] = [],
): Record<CarrierId, Carrier> {
  if (mode === 'test') return simulatorsFor(clock, config);
  return byId(
    carrierCatalog.map((c) => {
      const p = c.id.toUpperCase();
      const mine = own[c.id];
      if (mine) return liveAdapter(c.id, mine, 'own', config, clock);
      if (unreadable.includes(c.id)) {
        return new UncredentialedCarrier(c.id, `The account's own ${c.name} credentials cannot be read with this SHIPD_SECRET; connect them again`);
      }
      const { clientId, clientSecret, accountNumber, crid, mid, manifestMid } = config.carriers[c.id];
      return clientId && clientSecret
        ? liveAdapter(c.id, { clientId, clientSecret, ...(accountNumber && { accountNumber }), ...(crid && { crid }), ...(mid && { mid }), ...(manifestMid && { manifestMid }) }, 'platform', config, clock)
        : new UncredentialedCarrier(c.id, `Set ${p}_CLIENT_ID and ${p}_CLIENT_SECRET, or connect the account's own ${c.name} account, to use ${c.name} with live keys`);
    }),
  );
}
