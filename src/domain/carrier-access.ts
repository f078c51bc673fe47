import type { CarrierId } from '../config.ts';
import type { ShipmentsTable } from '../db/schema.ts';
import type { Carrier } from '../carriers/carrier.ts';
import { carriersFor } from '../carriers/registry.ts';
import type { Mode } from './api-key-format.ts';
import { ownCredentials } from './carrier-accounts.ts';
import type { Context } from './context.ts';

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

/** The carrier, with the credentials, a label was bought with: a void or a tracking request must go where the label came from. */
export async function carrierForShipment(ctx: Deps, row: ShipmentsTable): Promise<Carrier> {
  const carrier = row.carrier as CarrierId;
  if (row.payment === 'carrier_account') return (await carrierAccess(ctx, row.account_id, row.mode)).carriers[carrier];
  return carriersFor(row.mode, ctx.config, ctx.clock)[carrier];
}
