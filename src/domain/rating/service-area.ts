import { ApiError } from '../../kernel/errors.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { countryOf, isUsAddress } from '../addresses/address-rules.ts';
import { countryName } from '../addresses/countries.ts';

/**
 * The two ends of a shipment as carriers are handed them, once both are where shipd sells services. Parcels leave
 * from the US (its territories, freely associated states and military post offices). Test mode ships them to any
 * country the simulators price; live mode sells only within the US until the live adapters' international requests
 * land, so any other country is a 422 country_not_served there, after the request's own faults and before any
 * carrier is asked.
 */
export function servedEnds(from: AnyAddress, to: AnyAddress, orderId: string | null, mode: Mode): { from: Address; to: AnyAddress } {
  if (isUsAddress(from) && (isUsAddress(to) || mode === 'test')) return { from, to };
  const country = countryOf(isUsAddress(to) ? from : to);
  const kept = orderId ? `; order ${orderId} and its customs declaration are kept for when they are` : '';
  const why = isUsAddress(from)
    ? 'is not served yet in live mode: live keys buy UPS, USPS and FedEx services within the US, its territories, freely associated states and ' +
      'military post offices; test keys ship abroad, and live international services are coming'
    : 'is not served as an origin: parcels leave from the US, its territories, freely associated states and military post offices';
  throw new ApiError('country_not_served', `${countryName(country)} (${country}) ${why}. Nothing was rated or bought${kept}`);
}

/** The ends of the return of a shipment: the customer sends it back from `to`, which must be in the US. */
export function returnEnds(ends: { from: Address; to: AnyAddress }, orderId: string): { from: Address; to: Address } {
  if (isUsAddress(ends.to)) return { from: ends.to, to: ends.from };
  const country = countryOf(ends.to);
  throw new ApiError('country_not_served', `Return labels from ${countryName(country)} (${country}) are not sold: a return label leaves from the US. Order ${orderId} keeps its outbound label`);
}
