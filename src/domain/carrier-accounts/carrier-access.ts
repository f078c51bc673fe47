import type { CarrierId } from '../../config.ts';
import type { ShipmentsTable } from '../../db/schema.ts';
import { failure, type Carrier, type CarrierResult, type RateRequest } from '../../carriers/carrier.ts';
import { carriersFor, UncredentialedCarrier } from '../../carriers/registry.ts';
import type { Mode } from '../../kernel/mode.ts';
import { ownCredentials, type OwnCredentials } from './carrier-accounts.ts';
import { callCarrier } from './carrier-call.ts';
import type { Context } from '../core/context.ts';

export interface CarrierAccess {
  carriers: Record<CarrierId, Carrier>;
  /** The carriers reached with the account's own credentials: their labels are billed by the carrier, not charged here. */
  own: ReadonlySet<CarrierId>;
}

type Deps = Pick<Context, 'db' | 'config' | 'clock'>;

const none: ReadonlySet<CarrierId> = new Set();

/** The carriers an account uses in a mode: simulators in test mode; in live mode its own accounts first, then the platform's. */
export async function carrierAccess(ctx: Deps, accountId: string, mode: Mode): Promise<CarrierAccess> {
  if (mode === 'test') return { carriers: carriersFor(mode, ctx.config, ctx.clock), own: none };
  const { own, unreadable } = await ownCredentials(ctx.db, ctx.config.secret, accountId);
  return { carriers: carriersFor(mode, ctx.config, ctx.clock, own, unreadable), own: new Set(Object.keys(own) as CarrierId[]) };
}

/**
 * The carrier, with the credentials, a label was bought with: a void, a tracking request or a purchase finished
 * later must go where the label came from. A label of the account's own carrier account never falls back to the
 * platform's: that would buy on the platform's bill what the ledger records as the carrier's.
 */
export async function carrierForShipment(ctx: Deps, row: ShipmentsTable): Promise<Carrier> {
  const carrier = row.carrier as CarrierId;
  if (row.payment !== 'carrier_account') return carriersFor(row.mode, ctx.config, ctx.clock)[carrier];
  const access = await carrierAccess(ctx, row.account_id, row.mode);
  const client = access.carriers[carrier];
  if (access.own.has(carrier) || !client.usable) return client;
  return new UncredentialedCarrier(carrier, `The label was bought with the account's own ${client.name} account, which is no longer connected; connect it again`);
}

/** A sample shipment any carrier rates: a 2 lb box from Austin to San Francisco. */
const sample: Omit<RateRequest, 'shipDate'> = {
  from: { name: 'Connection test', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
  to: { name: 'Connection test', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
  parcels: [{ weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } }],
};

/** Rates the sample shipment with these credentials alone: an answer with rates means the carrier accepted them. */
export async function testCredentials(ctx: Deps, carrier: CarrierId, creds: OwnCredentials): Promise<CarrierResult<number>> {
  const client = carriersFor('live', ctx.config, ctx.clock, { [carrier]: creds }, [])[carrier];
  const answer = await callCarrier(client, ctx.config.carrierTimeoutMs, (signal) => client.rate({ ...sample, shipDate: ctx.clock.now() }, signal));
  return answer.ok ? { ok: true, value: answer.value.length } : answer;
}

/**
 * Tries the account's own live credentials for a carrier by rating a sample shipment with them alone. Nothing is
 * bought. Answers how many rates came back.
 */
export async function testOwnCarrier(ctx: Deps, accountId: string, carrier: CarrierId): Promise<CarrierResult<number>> {
  const { own } = await ownCredentials(ctx.db, ctx.config.secret, accountId);
  const creds = own[carrier];
  if (!creds) return failure('credentials_missing', `The account has not connected its own ${carrier.toUpperCase()} account, or its credentials cannot be read with this server secret`);
  return testCredentials(ctx, carrier, creds);
}
