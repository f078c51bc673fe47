import { ApiError } from '../../kernel/errors.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { countryOf, isUsAddress } from '../addresses/address-rules.ts';
import { countryName } from '../addresses/countries.ts';

/**
 * The two ends of a shipment as carriers are handed them, once both are where shipd sells services: the US, its
 * territories, freely associated states and military post offices. International services are not sold yet, so any
 * other country is a 422 country_not_served, after the request's own faults and before any carrier is asked.
 */
export function servedEnds(from: AnyAddress, to: AnyAddress, orderId: string | null): { from: Address; to: Address } {
  if (isUsAddress(from) && isUsAddress(to)) return { from, to };
  const country = countryOf(isUsAddress(to) ? from : to);
  const kept = orderId ? `; order ${orderId} and its customs declaration are kept for when they are` : '';
  throw new ApiError(
    'country_not_served',
    `${countryName(country)} (${country}) is not served yet: shipd sells UPS, USPS and FedEx services within the US, its territories, ` +
      `freely associated states and military post offices, and international services are coming. Nothing was rated or bought${kept}`,
  );
}
