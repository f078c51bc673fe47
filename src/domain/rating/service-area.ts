import { ApiError } from '../../kernel/errors.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { countryOf, isUsAddress } from '../addresses/address-rules.ts';
import { countryName } from '../addresses/countries.ts';

/**
 * The two ends of a shipment as carriers are handed them, once both are where shipd sells services. Parcels leave
 * from the US (its territories, freely associated states and military post offices) for any country: the
 * simulators price every destination in test mode and the live adapters build international requests, each carrier
 * answering for itself where it does not serve one. Any other origin is a 422 country_not_served, after the
 * request's own faults and before any carrier is asked.
 */
export function servedEnds(from: AnyAddress, to: AnyAddress, orderId: string | null): { from: Address; to: AnyAddress } {
  if (isUsAddress(from)) return { from, to };
  const country = countryOf(from);
  const kept = orderId ? `; order ${orderId} and its customs declaration are kept` : '';
  throw new ApiError(
    'country_not_served',
    `${countryName(country)} (${country}) is not served as an origin: parcels leave from the US, its territories, freely associated states and military post offices. Nothing was rated or bought${kept}`,
  );
}

/** The ends of the return of a shipment: the customer sends it back from `to`, which must be in the US. */
export function returnEnds(ends: { from: Address; to: AnyAddress }, orderId: string): { from: Address; to: Address } {
  if (isUsAddress(ends.to)) return { from: ends.to, to: ends.from };
  const country = countryOf(ends.to);
  throw new ApiError('country_not_served', `Return labels from ${countryName(country)} (${country}) are not sold: a return label leaves from the US. Order ${orderId} keeps its outbound label`);
}
