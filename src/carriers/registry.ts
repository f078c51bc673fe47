import type { CarrierId, Config } from '../config.ts';
import type { Mode } from '../domain/api-key-format.ts';
import type { Clock } from '../domain/clock.ts';
import { failure, type Carrier, type CarrierErrorCode, type CarrierResult } from './carrier.ts';
import { carrierCatalog } from './catalog.ts';
import { SimulatedCarrier } from './sim/simulator.ts';
import { simTables } from './sim/tables.ts';

function byId(list: Carrier[]): Record<CarrierId, Carrier> {
  const out = {} as Record<CarrierId, Carrier>;
  for (const c of list) out[c.id] = c;
  return out;
}

/**
 * One set of simulators per clock and tracking speed: a test that moves its clock moves its carriers' tracking
 * too, and two configurations in one process each keep their own speed.
 */
const simulators = new WeakMap<Clock, Map<number, Record<CarrierId, Carrier>>>();

function simulatorsFor(clock: Clock, trackingSpeed: number): Record<CarrierId, Carrier> {
  let bySpeed = simulators.get(clock);
  if (!bySpeed) {
    bySpeed = new Map();
    simulators.set(clock, bySpeed);
  }
  let set = bySpeed.get(trackingSpeed);
  if (!set) {
    set = byId(simTables.map((t) => new SimulatedCarrier(t, clock, trackingSpeed)));
    bySpeed.set(trackingSpeed, set);
  }
  return set;
}

/** A live carrier shipd cannot call: it says why, per carrier, instead of failing the whole request. */
class UnreachableLiveCarrier implements Carrier {
  readonly name: string;
  readonly services: Carrier['services'];
  readonly usable = false;

  constructor(
    readonly id: CarrierId,
    private readonly code: CarrierErrorCode,
    private readonly reason: string,
  ) {
    const info = carrierCatalog.find((c) => c.id === id)!;
    this.name = info.name;
    this.services = info.services;
  }

  async rate(): Promise<CarrierResult<never>> {
    return failure(this.code, this.reason);
  }

  async purchase(): Promise<CarrierResult<never>> {
    return failure(this.code, this.reason);
  }

  async void(): Promise<CarrierResult<never>> {
    return failure(this.code, this.reason);
  }

  async track(): Promise<CarrierResult<never>> {
    return failure(this.code, this.reason);
  }
}

/** The carriers a key of this mode talks to: simulators in test mode, the carriers' APIs in live mode. */
export function carriersFor(mode: Mode, config: Config, clock: Clock): Record<CarrierId, Carrier> {
  if (mode === 'test') return simulatorsFor(clock, config.simTrackingSpeed);
  return byId(
    carrierCatalog.map((c) => {
      const p = c.id.toUpperCase();
      const creds = config.carriers[c.id];
      return creds.clientId && creds.clientSecret
        ? new UnreachableLiveCarrier(c.id, 'carrier_unavailable', `Live ${c.name} is not available in this version of shipd`)
        : new UnreachableLiveCarrier(c.id, 'credentials_missing', `Set ${p}_CLIENT_ID and ${p}_CLIENT_SECRET to use ${c.name} with live keys`);
    }),
  );
}
