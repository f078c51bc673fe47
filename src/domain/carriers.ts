import { carrierCatalog } from '../carriers/catalog.ts';
import type { Carrier } from '../schemas/carrier.ts';
import type { Context } from './context.ts';

export function listCarriers(ctx: Context): Carrier[] {
  return carrierCatalog.map((c) => {
    const creds = ctx.config.carriers[c.id];
    return {
      id: c.id,
      object: 'carrier' as const,
      name: c.name,
      services: c.services.map((s) => ({ ...s })),
      mode: ctx.principal.mode,
      connected: ctx.principal.mode === 'test' || Boolean(creds.clientId && creds.clientSecret),
    };
  });
}
