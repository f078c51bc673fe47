import { customsCurrency, declaredAmount, phoneDigits } from '../abroad.ts';
import { failure, type CarrierResult } from '../carrier.ts';
import type { CarrierId } from '../../config.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { Customs } from '../../schemas/customs.ts';

// UPS treats Puerto Rico as a country of its own (code PR) while shipd keeps it as the US state PR. Facts from
// UPS-API/api-documentation at commit e6f36df4da29ac1b448c898a79aac48f653bbb44 (2026-07-21): Shipping.yaml,
// ShipTo.Address.PostalCode "If the ShipTo country or territory is US or Puerto Rico"; Shipment.InvoiceLineTotal
// "Required for forward shipments whose origin is the US and destination is Puerto Rico or Canada. Not available
// for any other shipments"; ShipTo.AttentionName and ShipTo.Phone.Number "Required … when ShipTo country or
// territory is different than ShipFrom"; Rating.yaml, Shipment.InvoiceLineTotal "Required for international
// shipments when using request option … shoptimeintransit".

/** The country UPS knows an address by: PR for Puerto Rico, which shipd writes as country US, state PR. */
export function upsCountryOf(a: AnyAddress): string {
  const country = (a.country ?? 'US').toUpperCase();
  return country === 'US' && a.state?.trim().toUpperCase() === 'PR' ? 'PR' : country;
}

/** Whether UPS sees the shipment cross from one of its countries to another although shipd sees one US. */
export const crossesUpsCountries = (r: { from: AnyAddress; to: AnyAddress }): boolean => upsCountryOf(r.from) !== upsCountryOf(r.to);

/** InvoiceLineTotal's MonetaryValue: whole units, "from 1 to 99999999". */
const wholeUnits = (amount: number): string => String(Math.min(99_999_999, Math.max(1, Math.ceil(amount))));

/** InvoiceLineTotal: the declared value, in the declaration's currency. */
export const invoiceLineTotal = (c: Customs) => ({ CurrencyCode: customsCurrency(c), MonetaryValue: wholeUnits(declaredAmount(c)) });

type Valued = { customs?: Customs; goodsValue?: { amount: string; currency: string } };

/** InvoiceLineTotal between Puerto Rico and the US: the declaration's value, else the order's line items'. */
export function puertoRicoInvoiceTotal(r: Valued): { CurrencyCode: string; MonetaryValue: string } | undefined {
  if (r.customs) return invoiceLineTotal(r.customs);
  return r.goodsValue && { CurrencyCode: r.goodsValue.currency, MonetaryValue: wholeUnits(Number(r.goodsValue.amount)) };
}

/** Shipping takes InvoiceLineTotal on a forward shipment from the US to Puerto Rico and refuses it on any other. */
export const needsShipInvoiceTotal = (r: { from: AnyAddress; to: AnyAddress; isReturn: boolean }): boolean =>
  !r.isReturn && upsCountryOf(r.from) === 'US' && upsCountryOf(r.to) === 'PR';

/**
 * UPS's refusal of a shipment between Puerto Rico and the rest of the US that lacks what UPS requires when the
 * countries differ: the value of the goods, declared or from the order's line items (rating with time in transit needs it both ways, so a quote is never
 * given for a label that cannot be bought) and the recipient's phone. Null for any other carrier or shipment. USPS
 * and FedEx may still serve it, so this is UPS's answer, not the request's fault.
 */
export function upsPuertoRicoRefusal(carrier: CarrierId, r: Valued & { from: AnyAddress; to: AnyAddress }): CarrierResult<never> | null {
  if (carrier !== 'ups' || !crossesUpsCountries(r)) return null;
  if (!puertoRicoInvoiceTotal(r)) {
    return failure('not_serviced', 'UPS treats Puerto Rico as its own country and needs the value of the goods (InvoiceLineTotal) for a shipment between Puerto Rico and the rest of the US: give the order its line items with their prices in one currency, or a customs declaration (customs)');
  }
  const phone = phoneDigits(r.to.phone);
  if (phone.length < 1 || phone.length > 15) {
    return failure('address_invalid', "UPS needs the recipient's phone number (at most 15 digits) for a shipment between Puerto Rico and the rest of the US, which UPS treats as two countries");
  }
  return null;
}
