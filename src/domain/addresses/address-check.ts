import type { CarrierId } from '../../config.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { AddressCheck, Carrier } from '../../carriers/carrier.ts';
import { correctionsBetween, validateAddress, type AddressValidation } from './address-validation.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { isUsAddress } from './address-rules.ts';

/** USPS knows every US delivery point; UPS's XAV and FedEx's resolve are the fall-backs. */
const preference: CarrierId[] = ['usps', 'ups', 'fedex'];

/**
 * POST /addresses/validate. Test keys get the offline check (ZIP data and USPS-style normalization in the US, the
 * country's forms elsewhere). Live keys also get a carrier's street-level answer, which decides `valid`, the
 * standardized address and `residential`: USPS, UPS or FedEx for a US address, FedEx's for one elsewhere (UPS's
 * check covers the US and Puerto Rico only, USPS's the US). When no carrier can answer, the offline result stands
 * and a message says the street was not checked.
 */
export async function checkAddress(ctx: Context, input: AnyAddress): Promise<AddressValidation> {
  const offline = validateAddress(input);
  if (ctx.principal.mode === 'test') return offline;
  if (!isUsAddress(offline.address)) return checkAbroad(ctx, input, offline);
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
  return withCarrierAnswer(input, offline, offline.messages, carrier, answer.value);
}

/** The street-level check abroad, once the address has its country's form: by FedEx, where it checks that country. */
async function checkAbroad(ctx: Context, input: AnyAddress, offline: AddressValidation): Promise<AddressValidation> {
  if (!offline.valid) return offline;
  const { carriers } = await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode);
  const carrier = Object.values(carriers).find((c) => c.usable && c.validateAddressAbroad);
  // The offline answer says shipd has no street data there; a carrier's answer replaces that, or says why none came.
  const findings = offline.messages.filter((m) => m.code !== 'street_not_checked');
  const notChecked = (why: string): AddressValidation => ({ ...offline, messages: [...findings, { code: 'street_not_checked', detail: `The street and number were not checked: ${why}` }] });
  if (!carrier) return notChecked('no live carrier that checks addresses abroad is connected (FedEx does; UPS and USPS check US addresses only)');
  const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.validateAddressAbroad!(offline.address, signal));
  if (!answer.ok) return notChecked(answer.error.detail);
  return withCarrierAnswer(input, offline, findings, carrier, answer.value);
}

/** The offline answer with the carrier's street-level one: its validity, street, city, state, postal code and classification. */
function withCarrierAnswer(input: AnyAddress, offline: AddressValidation, findings: AddressValidation['messages'], carrier: Carrier, checked: AddressCheck<AnyAddress>): AddressValidation {
  const residential = checked.residential ?? offline.residential;
  const { street2: _offlineUnit, ...contact } = offline.address;
  const address: AnyAddress = {
    ...contact,
    street1: checked.address.street1,
    ...(checked.address.street2 && { street2: checked.address.street2 }),
    city: checked.address.city,
    ...(checked.address.state && { state: checked.address.state }),
    ...(checked.address.zip && { zip: checked.address.zip }),
    residential,
  };
  return {
    valid: checked.valid,
    address,
    corrections: correctionsBetween(input, address),
    messages: [...findings, ...checked.messages.map((m) => ({ code: `${carrier.id}_${m.code}`, detail: m.detail }))],
    residential,
    checks: [...offline.checks, { check: 'carrier_street', detail: `${carrier.name} checked the street and number` }],
  };
}
