import { carrierCatalog } from '../carriers/catalog.ts';
import { carriersFor } from '../carriers/registry.ts';
import type { Carrier } from '../schemas/carrier.ts';
import type { Context } from './context.ts';

export function listCarriers(ctx: Context): Carrier[] {
  const carriers = carriersFor(ctx.principal.mode, ctx.config, ctx.clock);
  return carrierCatalog.map((c) => {
    return {
      id: c.id,
      object: 'carrier' as const,
      name: c.name,
      services: c.services.map((s) => ({ ...s })),
      mode: ctx.principal.mode,
      connected: carriers[c.id].usable,
    };
  });
}
