import type { SimCarrierTable, SimService } from './tables.ts';

export interface Price {
  amountCents: number;
  listAmountCents: number;
}

/**
 * Published transport = (base + per-pound × (pounds − 1)) × (1 + zone step × (zone − 1)); the account pays
 * that less its discount. Both add the residential surcharge, then fuel on transport and residential.
 */
export function priceFor(carrier: SimCarrierTable, service: SimService, billableLb: number, zoneIndex: number, residential: boolean): Price {
  const list = Math.round((service.baseCents + service.perLbCents * (billableLb - 1)) * (1 + service.zoneStep * (zoneIndex - 1)));
  const account = Math.round(list * (1 - carrier.accountDiscount));
  const surcharge = residential ? carrier.residentialCents : 0;
  const total = (transport: number) => transport + surcharge + Math.round((transport + surcharge) * carrier.fuel);
  return { amountCents: total(account), listAmountCents: total(list) };
}
