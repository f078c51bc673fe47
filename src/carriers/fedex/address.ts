import type { Address } from '../../schemas/address.ts';
import { failure, ok, type AddressCheck, type CarrierResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { fedexAddress, type FedexAddress } from './party.ts';

export const addressPath = '/address/v1/addresses/resolve';

/** The address-validation document's Address has no residential flag: FedEx answers it, as classification. */
export function buildAddressRequest(address: Address): CarrierResult<{ addressesToValidate: { address: FedexAddress }[] }> {
  const wire = fedexAddress(address);
  if (!wire.ok) return wire;
  return ok({ addressesToValidate: [{ address: wire.value }] });
}

/** The spec types attributes as booleans; clients in the wild see strings ("true"), so both are read (carriers.md 4.7). */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const s = asString(value)?.toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : undefined;
}

const classifications: Readonly<Record<string, boolean | null>> = { RESIDENTIAL: true, BUSINESS: false, MIXED: null, UNKNOWN: null };

/**
 * output.resolvedAddresses[0]: FedEx's one resolution of the address (there is no candidate list). It counts as
 * valid when standardized and confirmed deliverable by DPV, the common reading of FedEx's attributes.
 */
export function parseAddressResponse(json: unknown, input: Address): CarrierResult<AddressCheck> {
  const resolved = asArray(at(json, 'output', 'resolvedAddresses'))[0];
  if (!resolved) return failure('carrier_error', 'FedEx answered the address request without output.resolvedAddresses');
  const attributes = at(resolved, 'attributes');
  const standardized = asString(at(attributes, 'AddressType'))?.toUpperCase() === 'STANDARDIZED';
  const valid = standardized && flag(at(attributes, 'DPV')) === true;
  const lines = asArray(at(resolved, 'streetLinesToken')).map(asString).filter((s): s is string => !!s);
  const base = asString(at(resolved, 'parsedPostalCode', 'base'));
  const addOn = asString(at(resolved, 'parsedPostalCode', 'addOn'));
  const zip = base ? (addOn ? `${base}-${addOn}` : base) : (asString(at(resolved, 'postalCodeToken', 'value')) ?? input.zip);
  const classification = asString(at(resolved, 'classification'))?.toUpperCase() ?? 'UNKNOWN';
  const messages = asArray(at(resolved, 'customerMessage')).map((m) => {
    const code = asString(m) ?? asString(at(m, 'code')) ?? 'FEDEX.MESSAGE';
    return { code, detail: asString(at(m, 'message')) ?? code };
  });
  if (!valid && messages.length === 0) {
    messages.push({ code: 'address_not_found', detail: `FedEx could not confirm this address as deliverable (${standardized ? 'no DPV match' : 'not standardized'})` });
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
