import type { CarrierId } from '../../config.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { correctionsBetween, validateAddress, type AddressValidation } from './address-validation.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { isUsAddress } from './address-rules.ts';

/** USPS knows every US delivery point; UPS's XAV and FedEx's resolve are the fall-backs. */
const preference: CarrierId[] = ['usps', 'ups', 'fedex'];

/**
 * POST /addresses/validate. Test keys get the offline check (ZIP data and USPS-style normalization in the US, the
 * country's forms elsewhere). Live keys also get a carrier's street-level answer for a US address, which decides
 * `valid`, the standardized address (ZIP+4) and `residential`; when no carrier can answer, the offline result stands
 * and a message says the street was not checked. Streets abroad are not checked by a carrier yet: the offline answer
 * says so.
 */
export async function checkAddress(ctx: Context, input: AnyAddress): Promise<AddressValidation> {
  const offline = validateAddress(input);
  if (ctx.principal.mode === 'test' || !isUsAddress(offline.address)) return offline;
  const { carriers } = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  const carrier = preference.map((id) => carriers[id]).find((c) => c.usable && c.validateAddress);
  if (!carrier) {
    return { ...offline, messages: [...offline.messages, { code: 'street_not_checked', detail: 'No live carrier is connected to check the street and number' }] };
  }
  const sent = offline.address;
  const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.validateAddress!(sent, signal));
  if (!answer.ok) {
    return { ...offline, messages: [...offline.messages, { code: 'street_not_checked', detail: `${carrier.name} could not check the street: ${answer.error.detail}` }] };
  }
  const checked = answer.value;
  const residential = checked.residential ?? offline.residential;
  const { street2: _offlineUnit, ...contact } = offline.address;
  const address: Address = {
    ...contact,
    street1: checked.address.street1,
    ...(checked.address.street2 && { street2: checked.address.street2 }),
    city: checked.address.city,
    state: checked.address.state,
    zip: checked.address.zip,
    residential,
  };
  return {
    valid: checked.valid,
    address,
    corrections: correctionsBetween(input, address),
    messages: [...offline.messages, ...checked.messages.map((m) => ({ code: `${carrier.id}_${m.code}`, detail: m.detail }))],
    residential,
    checks: [...offline.checks, { check: 'carrier_street', detail: `${carrier.name} checked the street and number` }],
  };
}
