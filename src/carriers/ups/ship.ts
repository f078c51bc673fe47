import { currencyOf } from '../live/currency.ts';
import { failure, isDomestic, labelReferences, ok, type CarrierResult, type DomesticPurchaseRequest, type FoundLocation, type ParcelSpec, type PurchaseRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import { upsAccessPointHold } from './access-point.ts';
import { fitAddressLines, upsLines } from './address-lines.ts';
import { crossesUpsCountries, needsShipInvoiceTotal, puertoRicoInvoiceTotal, upsPuertoRicoRefusal } from './puerto-rico.ts';
import { upsPackage, upsReturnOptionsRefusal, upsShipmentServiceOptions } from './service-options.ts';
import { apiVersion, printReturnLabel, servicesWithoutReturns, upsAddress, upsDate, upsName, type UpsCall } from './wire.ts';

/** What the Shipping API can print (Shipping.yaml, LabelImageFormat.Code); of ours it has ZPL, and GIF stands in for PDF and PNG. */
type UpsImageFormat = 'GIF' | 'ZPL';

const shipImageFormat = (format: PurchaseRequest['labelFormat']): UpsImageFormat => (format === 'zpl' ? 'ZPL' : 'GIF');

/**
 * The label's references as ReferenceNumber, without a Code (the client's are untyped): on each Package within the
 * US or within Puerto Rico, each box's own reference after the shipment's ("maximum: 5" a package), on the Shipment
 * between two UPS countries, where a box's own has no place (Shipping.yaml: the Package's is "Valid if the
 * origin/destination pair is US/US or PR/PR", the Shipment's "if the origin/destination pair is not US/US or PR/PR").
 */
function referenceNumbers(r: Pick<PurchaseRequest, 'reference' | 'references' | 'from' | 'to' | 'parcels'>): { onPackage: Record<string, unknown>[]; onShipment: Record<string, unknown> } {
  const refs = labelReferences(r, 35);
  const values = (list: string[]) => (list.length === 0 ? {} : { ReferenceNumber: list.map((Value) => ({ Value })) });
  if (crossesUpsCountries(r)) return { onPackage: r.parcels.map(() => ({})), onShipment: values(refs) };
  const own = (p: ParcelSpec) => (p.reference?.trim() ? [p.reference.slice(0, 35).trim()] : []);
  return { onPackage: r.parcels.map((p) => values([...refs, ...own(p)].slice(0, 5))), onShipment: {} };
}

/**
 * The ship call around a Shipment, at home or abroad: the request option and our idempotency key as its reference,
 * negotiated rates asked for, the label's references and ship date, and the label in the format bought, on the stock asked for
 * (LabelStockSize Height 6 or 8; UPS's GIF images, which stand in for PDF and PNG, are 4×6 whatever it says).
 * Each box is a Package, in the order of `parcels`, with the package options asked; `packageExtra` goes first in each.
 */
export function shipCall(
  r: Pick<PurchaseRequest, 'labelFormat' | 'labelSize' | 'idempotencyKey' | 'parcels' | 'reference' | 'references' | 'from' | 'to' | 'shipDate' | 'options'>,
  shipment: Record<string, unknown>,
  packageExtra: Record<string, unknown> = {},
): UpsCall {
  const format = shipImageFormat(r.labelFormat);
  const references = referenceNumbers(r);
  return {
    path: `/api/shipments/${apiVersion}/ship`,
    body: {
      ShipmentRequest: {
        Request: { RequestOption: 'nonvalidate', TransactionReference: { CustomerContext: r.idempotencyKey } },
        Shipment: {
          ...shipment,
          ...references.onShipment,
          Package: r.parcels.map((parcel, i) => ({
            ...packageExtra,
            Packaging: { Code: '02' },
            ...upsPackage(parcel, 'shipping', r.options, !isDomestic(r)),
            ...references.onPackage[i],
          })),
          ShipmentRatingOptions: { NegotiatedRatesIndicator: '' },
          // The label's date: "up to 7 days in the future with current date as day zero" (Shipping.yaml ShipmentDate).
          ShipmentDate: upsDate(r.shipDate),
        },
        LabelSpecification: {
          LabelImageFormat: { Code: format },
          ...(format === 'GIF' ? { HTTPUserAgent: 'Mozilla/4.5' } : {}),
          LabelStockSize: { Height: format === 'ZPL' && r.labelSize === '4x8' ? '8' : '6', Width: '4' },
        },
      },
    },
  };
}

/** `attention`: the contact named even without a person's name, as a ShipTo in another UPS country needs one. */
function party(a: Address, lines: string[], markResidential: boolean, attention = false): Record<string, unknown> {
  const phone = a.phone?.replace(/\D/g, '').slice(0, 15);
  const contact = a.name ?? (attention ? upsName(a) : undefined);
  return {
    Name: upsName(a),
    ...(contact ? { AttentionName: contact.slice(0, 35).trim() } : {}),
    ...(phone ? { Phone: { Number: phone } } : {}),
    Address: upsAddress(a, lines, markResidential),
  };
}

/**
 * The ship request. Unlike Rating it says Packaging and PaymentInformation. Shipping.yaml marks LabelStockSize
 * required, and UPS ignores it for GIF.
 *
 * A return (Shipping.yaml, ReturnService "When this container exists, the shipment is a return shipment") is a
 * Print Return Label: the merchant (`to`) is the Shipper whose account pays and to whom an undeliverable parcel
 * goes back, the customer (`from`) is ShipFrom, which a return requires, and the Package needs a Description.
 * Some services are not sold as returns; those are refused here rather than by UPS. Between Puerto Rico and the
 * rest of the US UPS sees two countries (puerto-rico.ts): the ShipTo needs its contact and phone, and a forward
 * shipment to Puerto Rico the value of its goods. `accessPoint`, the UPS Access Point the parcel is held at
 * (options.hold_for_pickup), as the Locator describes it.
 */
export function buildShipRequest(r: DomesticPurchaseRequest, accountNumber: string, accessPoint?: FoundLocation): CarrierResult<UpsCall> {
  if (r.isReturn && servicesWithoutReturns.has(r.service)) {
    return failure('service_unavailable', `UPS does not sell service ${r.service} as a return label`);
  }
  const refused = upsPuertoRicoRefusal('ups', r) ?? upsReturnOptionsRefusal(r);
  if (refused) return refused;
  const lines = fitAddressLines({ origin: r.from, destination: r.to }, upsLines.shipping);
  if (!lines.ok) return lines;
  const shipper = r.isReturn ? party(r.to, lines.value.destination, false) : party(r.from, lines.value.origin, false);
  const shipment = {
    Description: (r.reference ?? 'shipd shipment').slice(0, 50),
    ...(r.isReturn ? { ReturnService: printReturnLabel } : {}),
    Shipper: { ...shipper, ShipperNumber: accountNumber },
    ShipFrom: party(r.from, lines.value.origin, false),
    ShipTo: party(r.to, lines.value.destination, true, crossesUpsCountries(r)),
    ...(accessPoint ? upsAccessPointHold(accessPoint, r.to, 'shipping') : {}),
    PaymentInformation: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] },
    Service: { Code: r.service },
    ...(needsShipInvoiceTotal(r) ? { InvoiceLineTotal: puertoRicoInvoiceTotal(r) } : {}),
    ...upsShipmentServiceOptions(r.options),
  };
  return ok(shipCall(r, shipment, r.isReturn ? { Description: (r.reference ? `Return ${r.reference}` : 'Return').slice(0, 35) } : {}));
}

/** One box of a bought shipment: its 1Z and its label image. */
export interface UpsPackage {
  trackingNumber: string;
  /** The image as UPS sent it; its real format is read from the bytes (label-file.ts), not from ImageFormat.Code. */
  label: Buffer;
}

export interface UpsShipment {
  /** ShipmentIdentificationNumber, the key a void needs: "1Z Number of the first package in the shipment". */
  shipmentId: string;
  /** Every box, in the order of the request's Packages. */
  packages: UpsPackage[];
  postageCents: number;
  currency: string;
}

/**
 * What the label costs: the account (negotiated) total when UPS gives one, else the published total, each with the
 * CurrencyCode beside its own amount.
 */
function charged(results: unknown): { cents: number; currency: string } | undefined {
  for (const charge of [at(results, 'NegotiatedRateCharges', 'TotalCharge'), at(results, 'ShipmentCharges', 'TotalCharges')]) {
    const cents = asCents(at(charge, 'MonetaryValue'));
    if (cents !== undefined) return { cents, currency: currencyOf(at(charge, 'CurrencyCode')) };
  }
  return undefined;
}

/**
 * PackageResults, one per Package in the order sent, may be one object on versions before v2403. `boxes` is how
 * many were sent: an answer with another count cannot be matched to the boxes, so is a carrier error naming the
 * shipment, as a missing image is.
 */
export function parseShipResponse(json: unknown, boxes = 1): CarrierResult<UpsShipment> {
  const results = at(json, 'ShipmentResponse', 'ShipmentResults');
  if (results === undefined) return failure('carrier_error', 'UPS ship answer has no ShipmentResponse.ShipmentResults');
  const shipmentId = asString(at(results, 'ShipmentIdentificationNumber'));
  const listed = asArray(at(results, 'PackageResults'));
  const cost = charged(results);
  if (!shipmentId) return failure('carrier_error', 'UPS ship answer has no ShipmentIdentificationNumber');
  if (listed.length !== boxes) return failure('carrier_error', `UPS ship answer for ${shipmentId} has ${listed.length} PackageResults for ${boxes} package(s)`);
  const packages: UpsPackage[] = [];
  for (const [i, pkg] of listed.entries()) {
    // One box's number is the shipment's when UPS leaves it out of its only PackageResults.
    const trackingNumber = asString(at(pkg, 'TrackingNumber')) ?? (boxes === 1 ? shipmentId : undefined);
    const image = asString(at(pkg, 'ShippingLabel', 'GraphicImage'));
    if (!trackingNumber) return failure('carrier_error', `UPS ship answer for ${shipmentId} has no TrackingNumber for package ${i + 1}`);
    if (!image) return failure('carrier_error', `UPS ship answer for ${shipmentId} has no ShippingLabel.GraphicImage for ${trackingNumber}`);
    packages.push({ trackingNumber, label: Buffer.from(image, 'base64') });
  }
  if (cost === undefined) return failure('carrier_error', `UPS ship answer for ${shipmentId} has no TotalCharges`);
  return ok({ shipmentId, packages, postageCents: cost.cents, currency: cost.currency });
}
