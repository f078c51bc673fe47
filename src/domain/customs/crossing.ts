import { customsBorder } from '../../carriers/customs-border.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import { eeiThresholdUsd, type Customs } from '../../schemas/customs.ts';
import { needsExportFiling } from './checks.ts';
import { recipientPhoneErrors } from '../addresses/address-rules.ts';
import { countryInSentence } from '../addresses/countries.ts';
import { fieldSummary, failIfAny } from '../shipments/shipment-inputs.ts';

const field = (pointer: string, detail: string): FieldError => ({ in: 'body', pointer, detail });

/**
 * What a shipment needs before any carrier is asked where it crosses a customs border: its declaration, and a phone
 * for a recipient abroad. Faults go to the pointers given: the request's own fields, or the order that holds them.
 */
export function crossingErrors(from: AnyAddress, to: AnyAddress, declared: boolean, pointers: { customs: string; to: string }): FieldError[] {
  const border = customsBorder(from, to);
  const why = border?.kind === 'abroad' ? `the parcel crosses the border of ${countryInSentence(border.country)}, where customs examine every parcel` : border?.rule;
  return [...(why && !declared ? [field(pointers.customs, `is required: ${why}`)] : []), ...recipientPhoneErrors(to, pointers.to)];
}

/**
 * Refuses a request with faults: validation_failed when anything beside the declaration is at fault (listing every
 * fault, the declaration's too); otherwise customs_required when the declaration is missing, customs_invalid when it
 * is wrong.
 */
export function failIfAnyWithCustoms(errors: FieldError[], customsPointer: string): void {
  const inside = (e: FieldError) => e.pointer === customsPointer || e.pointer.startsWith(`${customsPointer}/`);
  if (errors.some((e) => !inside(e))) failIfAny(errors);
  if (errors.length === 0) return;
  throw new ApiError(errors.some((e) => e.pointer === customsPointer) ? 'customs_required' : 'customs_invalid', fieldSummary(errors), errors);
}

/**
 * An order to Puerto Rico needs no declaration for customs, but one worth over $2,500 may need EEI filed, which goes by
 * Schedule B number: without a declaration that number is unknown, so such an order must declare its items.
 */
function filingErrors(to: AnyAddress, customs: Customs | null, goodsValue: { amount: string; currency: string } | undefined): FieldError[] {
  if (customs || !goodsValue || !needsExportFiling(to) || goodsValue.currency !== 'USD' || Number(goodsValue.amount) <= eeiThresholdUsd) return [];
  const place = countryInSentence((to.state ?? '').toUpperCase());
  return [
    field(
      '/customs',
      `is required: the order's items are worth $${goodsValue.amount}, and shipments to ${place} need EEI filed when the items of one Schedule B number are worth over $${eeiThresholdUsd.toLocaleString('en-US')} (15 CFR 30.2, 30.37(a)); declare the items with their HS numbers, and the ITN (aes_itn) or the exemption that applies (eel_pfc)`,
    ),
  ];
}

/** The same checks for an order being rated or bought: its faults are the order's, named at /order_id. */
export function checkOrderCrossing(orderId: string, from: AnyAddress, to: AnyAddress, customs: Customs | null, goodsValue?: { amount: string; currency: string }): void {
  const faults = [...crossingErrors(from, to, customs !== null, { customs: '/customs', to: '/ship_to' }), ...filingErrors(to, customs, goodsValue)];
  if (faults.length === 0) return;
  const errors = faults.map((e) => field('/order_id', `names order ${orderId}, whose ${e.pointer.slice(1)} ${e.detail}; add it with PATCH /orders/${orderId}`));
  throw new ApiError(faults.some((e) => e.pointer === '/customs') ? 'customs_required' : 'validation_failed', fieldSummary(errors), errors);
}
