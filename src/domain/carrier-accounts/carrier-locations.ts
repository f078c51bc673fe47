import type { CarrierLocation, CarrierLocationQuery } from '../../schemas/carrier.ts';
import { ApiError } from '../../kernel/errors.ts';
import { carrierAccess } from './carrier-access.ts';
import { callCarrier } from './carrier-call.ts';
import type { Context } from '../core/context.ts';

export const defaultLocationLimit = 10;

/**
 * GET /carrier-locations: where the carrier holds parcels for their recipients near a ZIP Code, nearest first, as
 * the carrier answers (the simulators in test mode). The id of one is what options.hold_location takes.
 */
export async function findCarrierLocations(ctx: Context, query: CarrierLocationQuery): Promise<CarrierLocation[]> {
  const { mode } = ctx.principal;
  const carrier = (await carrierAccess(ctx, ctx.principal.accountId, mode)).carriers[query.carrier];
  const find = carrier.findLocations?.bind(carrier);
  if (!find) throw new ApiError('not_supported_by_carrier', `shipd does not search ${carrier.name}'s locations with ${mode} keys`);
  const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => find({ zip: query.zip, limit: query.limit ?? defaultLocationLimit }, signal));
  if (!answer.ok) {
    const { code, detail } = answer.error;
    if (code === 'carrier_timeout') throw new ApiError('carrier_timeout', `${detail}; no locations were found`);
    if (code === 'address_invalid') throw new ApiError('validation_failed', `${carrier.name}: ${detail}`, [{ in: 'query', pointer: '/zip', detail }]);
    throw new ApiError('carrier_error', `${carrier.name}: ${detail}; no locations were found`);
  }
  return answer.value.slice(0, query.limit ?? defaultLocationLimit).map((l) => ({
    object: 'carrier_location' as const,
    carrier: carrier.id,
    id: l.id,
    name: l.name,
    kind: l.kind,
    address: l.address,
    distance_miles: l.distanceMiles,
  }));
}
