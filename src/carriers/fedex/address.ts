import type { Address, AnyAddress } from '../../schemas/address.ts';
import { countryOf } from '../abroad.ts';
import { failure, ok, type AddressCheck, type CarrierResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { fedexAddress, fedexStreetLines, placeAbroad, type FedexAddress } from './party.ts';

export const addressPath = '/address/v1/addresses/resolve';

/** The address-validation document's Address has no residential flag: FedEx answers it, as classification. */
export function buildAddressRequest(address: Address): CarrierResult<{ addressesToValidate: { address: FedexAddress }[] }> {
  const wire = fedexAddress(address);
  if (!wire.ok) return wire;
  return ok({ addressesToValidate: [{ address: wire.value }] });
}

/**
 * An address in another country, as the same document's Address takes it: streetLines, city and postalCode
 * required, the state or province where the country has a code of at most two letters.
 */
export function buildAddressRequestAbroad(a: AnyAddress): CarrierResult<{ addressesToValidate: { address: ReturnType<typeof placeAbroad> & { streetLines: string[] } }[] }> {
  if (!a.zip?.trim()) return failure('not_serviced', `FedEx's address check needs a postal code, which addresses in ${countryOf(a)} do not have`);
  const streetLines = fedexStreetLines(a);
  if (!streetLines) return failure('address_invalid', 'FedEx takes at most 3 street lines of 35 characters');
  return ok({ addressesToValidate: [{ address: { streetLines, ...placeAbroad(a) } }] });
}

/** The spec types attributes as booleans; clients in the wild see strings ("true"), so both are read (carriers.md 4.7). */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const s = asString(value)?.toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : undefined;
}

const classifications: Readonly<Record<string, boolean | null>> = { RESIDENTIAL: true, BUSINESS: false, MIXED: null, UNKNOWN: null };

/**
 * output.resolvedAddresses[0]: FedEx's one resolution of the address (there is no candidate list). A US address
 * counts as valid when standardized and confirmed deliverable by DPV, the common reading of FedEx's attributes; one
 * elsewhere, where DPV (a USPS delivery point) does not apply, when FedEx resolved it and matched it to a record of
 * its address data (attributes Resolved and Matched). A country FedEx does not check (CountrySupported false) is
 * not_serviced: the address was not checked, which is not the same as invalid.
 */
export function parseAddressResponse<A extends AnyAddress = Address>(json: unknown, input: A): CarrierResult<AddressCheck<A>> {
  const resolved = asArray(at(json, 'output', 'resolvedAddresses'))[0];
  if (!resolved) return failure('carrier_error', 'FedEx answered the address request without output.resolvedAddresses');
  const attributes = at(resolved, 'attributes');
  const home = countryOf(input) === 'US';
  if (!home && flag(at(attributes, 'CountrySupported')) === false) return failure('not_serviced', `FedEx does not check addresses in ${countryOf(input)}`);
  const standardized = asString(at(attributes, 'AddressType'))?.toUpperCase() === 'STANDARDIZED';
  const valid = home ? standardized && flag(at(attributes, 'DPV')) === true : flag(at(attributes, 'Resolved')) === true && flag(at(attributes, 'Matched')) === true;
  const lines = asArray(at(resolved, 'streetLinesToken')).map(asString).filter((s): s is string => !!s);
  const base = asString(at(resolved, 'parsedPostalCode', 'base'));
  const addOn = asString(at(resolved, 'parsedPostalCode', 'addOn'));
  const token = asString(at(resolved, 'postalCodeToken', 'value'));
  const zip = home && base ? (addOn ? `${base}-${addOn}` : base) : (token ?? input.zip);
  const classification = asString(at(resolved, 'classification'))?.toUpperCase() ?? 'UNKNOWN';
  const messages = asArray(at(resolved, 'customerMessage')).map((m) => {
    const code = asString(m) ?? asString(at(m, 'code')) ?? 'FEDEX.MESSAGE';
    return { code, detail: asString(at(m, 'message')) ?? code };
  });
  if (!valid && messages.length === 0) {
    const why = home ? (standardized ? 'no DPV match' : 'not standardized') : 'not matched to a known address';
    messages.push({ code: 'address_not_found', detail: `FedEx could not confirm this address as deliverable (${why})` });
  }
  return ok({
    valid,
    address: {
      ...input,
      street1: lines[0] ?? input.street1,
      ...(lines[1] ? { street2: lines[1] } : {}),
      city: asString(at(resolved, 'city')) ?? input.city,
      state: asString(at(resolved, 'stateOrProvinceCode')) ?? input.state,
      zip,
    },
    residential: Object.hasOwn(classifications, classification) ? classifications[classification]! : null,
    messages,
  });
}
