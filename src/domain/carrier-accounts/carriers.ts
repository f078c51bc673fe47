import { carrierCatalog } from '../../carriers/catalog.ts';
import { carrierAccess } from './carrier-access.ts';
import type { Carrier } from '../../schemas/carrier.ts';
import type { Context } from '../core/context.ts';

export async function listCarriers(ctx: Context): Promise<Carrier[]> {
  const { carriers } = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  return carrierCatalog.map((c) => {
    return {
      id: c.id,
      object: 'carrier' as const,
      name: c.name,
      services: c.services,
      mode: ctx.principal.mode,
      connected: carriers[c.id].usable,
    };
  });
}
