import { countryOf, customsCurrency, documentsOnly, exportFiling, purposes, phoneDigits, type AbroadPurchase, type AbroadShipment } from '../abroad.ts';
import { failure, ok, type CarrierResult } from '../carrier.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { Customs } from '../../schemas/customs.ts';
import { asString, at } from '../live/lenient.ts';
import { fitAddressLines, upsLines } from './address-lines.ts';
import { invoiceLineTotal } from './puerto-rico.ts';
import { shipCall } from './ship.ts';
import { isResidential } from '../carrier.ts';
import { apiVersion, rateRequestHeader, upsAddress, upsDate, upsName, type UpsCall } from './wire.ts';
import { upsPackage, upsShipmentServiceOptions } from './service-options.ts';

// Shipments abroad through UPS's Shipping and Rating APIs: Shipping.yaml and Rating.yaml in UPS-API/api-documentation
// at commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21), ShipmentServiceOptions.InternationalForms,
// Shipment.InvoiceLineTotal, ShipTo.Phone and AttentionName; test/contracts/ups/ holds our schemas of them.

/** UPS's services abroad from the US that shipd sells (catalog.ts): Worldwide Express, Expedited, Saver, Standard. */
export const upsServicesAbroad: ReadonlySet<string> = new Set(['07', '08', '65', '11']);
/** UPS Standard (11) goes from the US to Canada and Mexico only. */
const standardCountries: ReadonlySet<string> = new Set(['CA', 'MX']);

/**
 * An address abroad as UPS takes it: the state where the country has one (Shipping allows 5 characters, Rating 2),
 * the postal code without spaces or hyphens ("A#A#A#" for Canada, at most 9 alphanumerics elsewhere).
 */
function addressAbroad(a: AnyAddress, lines: string[], stateMax: number, markResidential: boolean): Record<string, unknown> {
  const state = a.state?.trim().toUpperCase();
  const postal = a.zip?.replace(/[\s-]/g, '').toUpperCase();
  return {
    AddressLine: lines,
    City: a.city.slice(0, 30),
    ...(state && state.length <= stateMax ? { StateProvinceCode: state } : {}),
    ...(postal ? { PostalCode: postal } : {}),
    CountryCode: countryOf(a),
    ...(markResidential && isResidential(a) ? { ResidentialAddressIndicator: '' } : {}),
  };
}

/** Text cut into at most `count` lines of `width` characters, as Product.Description takes it (3 × 35). */
function chunks(text: string, width: number, count: number): string[] {
  const words = text.trim().replace(/\s+/g, ' ');
  const out: string[] = [];
  for (let rest = words; rest && out.length < count; rest = rest.slice(width).trim()) out.push(rest.slice(0, width).trim());
  return out;
}

/**
 * Shipment.Description, "required if ShipFrom and ShipTo countries are not the same": what the parcel holds, from
 * the declaration's lines, in at most 50 characters.
 */
const goodsDescription = (c: Customs): string => c.items.map((i) => i.description.trim()).join(', ').slice(0, 50).trim();

/** ReasonForExport: "SALE, GIFT, SAMPLE, RETURN, REPAIR, INTERCOMPANYDATA, Any other reason", at most 20 characters. */
function reasonForExport(c: Customs): string {
  const reasons = { sale: 'SALE', gift: 'GIFT', sample: 'SAMPLE', return: 'RETURN', documents: 'DOCUMENTS', other: (c.contents_explanation ?? 'OTHER').toUpperCase() };
  return reasons[purposes[c.contents_type]].slice(0, 20).trim();
}

/** The US export filing the invoice cites: the ITN of the EEI filed, or the exemption. */
function filingComment(shipment: AbroadShipment): string {
  const filing = exportFiling(shipment.customs, shipment.to);
  return 'itn' in filing ? `AES ${filing.itn}` : filing.exemption;
}

/**
 * ShipmentServiceOptions.InternationalForms with FormType 01, the commercial invoice: its number and date, reason for
 * export, currency, terms of shipment (the incoterm) and SoldTo, which an invoice requires, and one Product per
 * declared line (Description, Unit with Number, Value and UnitOfMeasurement, CommodityCode, PartNumber — "Required
 * for Invoice forms" —, OriginCountryCode). The filing and the signer's certification go on the invoice's comments
 * and declaration statement. An account with UPS Paperless Invoice enabled has the invoice sent electronically;
 * otherwise UPS answers it as a form image to print.
 */
function invoiceForms(r: AbroadPurchase, soldTo: Record<string, unknown>): Record<string, unknown> {
  const c = r.customs;
  return {
    FormType: ['01'],
    Contacts: { SoldTo: soldTo },
    Product: c.items.map((item, n) => ({
      Description: chunks(item.description, 35, 3),
      Unit: { Number: String(item.quantity), UnitOfMeasurement: { Code: 'PCS' }, Value: item.unit_value.amount },
      CommodityCode: item.hs_tariff_number,
      PartNumber: (item.sku ?? String(n + 1)).slice(0, 35),
      OriginCountryCode: item.origin_country.toUpperCase(),
    })),
    InvoiceNumber: (c.invoice_number ?? r.reference ?? r.idempotencyKey).slice(0, 35),
    InvoiceDate: upsDate(r.shipDate),
    ReasonForExport: reasonForExport(c),
    TermsOfShipment: c.incoterm ?? 'DAP',
    Comments: filingComment(r).slice(0, 150),
    DeclarationStatement: `I, ${c.signer.trim()}, certify that the information on this invoice is true and correct and that the contents of this shipment are as stated above.`.slice(0, 550),
    CurrencyCode: customsCurrency(c),
  };
}

/** What UPS refuses before it is asked: a service it does not run abroad from the US, a recipient it cannot call. */
function refusal(r: AbroadShipment & { service?: string }): CarrierResult<never> | undefined {
  const country = countryOf(r.to);
  if (r.service !== undefined && !upsServicesAbroad.has(r.service)) return failure('service_unavailable', `UPS service ${r.service} does not ship from the US to another country; choose Worldwide Express, Expedited or Saver`);
  if (r.service === '11' && !standardCountries.has(country)) return failure('service_unavailable', `UPS Standard (11) goes from the US to Canada and Mexico only, not to ${country}`);
  const phone = phoneDigits(r.to.phone);
  if (phone.length < 1 || phone.length > 15) return failure('address_invalid', 'UPS needs the recipient\'s phone number (at most 15 digits) for a shipment to another country');
  return undefined;
}

/**
 * The ship request abroad: ShipTo with AttentionName and Phone ("required … when ShipTo country or territory is
 * different than the ShipFrom country"), Shipment.Description, the commercial invoice unless the parcel holds only
 * documents of no commercial value, and for DDP a second ShipmentCharge, Type 02 "Duties and Taxes", billed to the
 * shipper's account: with DAP the recipient pays them.
 */
export function buildShipRequestAbroad(r: AbroadPurchase, accountNumber: string): CarrierResult<UpsCall> {
  const refused = refusal(r);
  if (refused) return refused;
  const lines = fitAddressLines({ origin: r.from, destination: r.to }, upsLines.shipping);
  if (!lines.ok) return lines;
  const c = r.customs;
  const phone = { Number: phoneDigits(r.to.phone) };
  const attention = (r.to.name ?? upsName(r.to)).slice(0, 35).trim();
  const shipper = { Name: upsName(r.from), ...(r.from.name ? { AttentionName: r.from.name.slice(0, 35).trim() } : {}), ...(r.from.phone ? { Phone: { Number: phoneDigits(r.from.phone).slice(0, 15) } } : {}), Address: upsAddress(r.from, lines.value.origin, false) };
  const soldTo = { Name: upsName(r.to), AttentionName: attention, Phone: phone, Address: addressAbroad(r.to, lines.value.destination, 5, false) };
  const charges = [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }, ...(c.incoterm === 'DDP' ? [{ Type: '02', BillShipper: { AccountNumber: accountNumber } }] : [])];
  const forms = documentsOnly(c) ? undefined : invoiceForms(r, soldTo);
  return ok(
    shipCall(r, {
      Description: goodsDescription(c),
      Shipper: { ...shipper, ShipperNumber: accountNumber },
      ShipFrom: shipper,
      ShipTo: { Name: upsName(r.to), AttentionName: attention, Phone: phone, ...(r.to.email ? { EMailAddress: r.to.email.slice(0, 50) } : {}), Address: addressAbroad(r.to, lines.value.destination, 5, true) },
      PaymentInformation: { ShipmentCharge: charges },
      Service: { Code: r.service },
      ...(countryOf(r.to) === 'CA' ? { InvoiceLineTotal: invoiceLineTotal(c) } : {}),
      ...upsShipmentServiceOptions(r.options, forms ? { InternationalForms: forms } : {}, true),
    }),
  );
}

/**
 * The Shop-with-time-in-transit rate request abroad: as at home, with the recipient abroad and InvoiceLineTotal,
 * which Rating requires for international shipments rated with time in transit.
 */
export function buildRateRequestAbroad(r: AbroadShipment, accountNumber: string | undefined): CarrierResult<UpsCall> {
  const refused = refusal(r);
  if (refused) return refused;
  const lines = fitAddressLines({ origin: r.from, destination: r.to }, upsLines.shipping);
  if (!lines.ok) return lines;
  const from = upsAddress(r.from, lines.value.origin, false);
  return ok({
    path: `/api/rating/${apiVersion}/Shoptimeintransit`,
    body: {
      RateRequest: {
        Request: rateRequestHeader,
        Shipment: {
          Shipper: { Name: upsName(r.from), ...(accountNumber ? { ShipperNumber: accountNumber } : {}), Address: from },
          ShipFrom: { Name: upsName(r.from), Address: from },
          ShipTo: { Name: upsName(r.to), Address: addressAbroad(r.to, lines.value.destination, 2, true) },
          ...(accountNumber ? { PaymentDetails: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] } } : {}),
          NumOfPieces: String(r.parcels.length),
          Package: r.parcels.map((parcel) => ({ PackagingType: { Code: '02' }, ...upsPackage(parcel, 'rating', r.options, true) })),
          ...upsShipmentServiceOptions(r.options, {}, true),
          ...(accountNumber ? { ShipmentRatingOptions: { NegotiatedRatesIndicator: '' } } : {}),
          DeliveryTimeInformation: { PackageBillType: documentsOnly(r.customs) ? '02' : '03', Pickup: { Date: upsDate(r.shipDate) } },
          InvoiceLineTotal: invoiceLineTotal(r.customs),
        },
      },
    },
  });
}

/**
 * ShipmentResults.Form: "All Requested International Forms" as one base64 image (PDF), returned when UPS did not
 * send the invoice electronically (an account without Paperless Invoice). Undefined when UPS sent none.
 */
export function parseInvoiceForm(json: unknown): { format: string; bytes: Buffer } | undefined {
  const image = at(json, 'ShipmentResponse', 'ShipmentResults', 'Form', 'Image');
  const bytes = asString(at(image, 'GraphicImage'));
  if (!bytes) return undefined;
  return { format: (asString(at(image, 'ImageFormat', 'Code')) ?? 'PDF').toUpperCase(), bytes: Buffer.from(bytes, 'base64') };
}
