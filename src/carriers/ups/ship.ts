import { currencyOf } from '../live/currency.ts';
import { failure, ok, type CarrierResult, type PurchaseRequest } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import { apiVersion, upsAddress, upsName, upsPackageMeasures, type UpsCall } from './wire.ts';

/** What the Shipping API can print (carriers.md 2.4); of ours it has ZPL, and GIF stands in for PDF and PNG. */
export type UpsImageFormat = 'GIF' | 'ZPL';

export const shipImageFormat = (format: PurchaseRequest['labelFormat']): UpsImageFormat => (format === 'zpl' ? 'ZPL' : 'GIF');

function party(a: Address, markResidential: boolean): Record<string, unknown> {
  return {
    Name: upsName(a),
    ...(a.name ? { AttentionName: a.name.slice(0, 35) } : {}),
    ...(a.phone ? { Phone: { Number: a.phone.replace(/\D/g, '').slice(0, 15) } } : {}),
    Address: upsAddress(a, markResidential),
  };
}

/**
 * The ship request (carriers.md 2.4). Unlike Rating it says Packaging and PaymentInformation. Thermal labels
 * need a stock size; 4×6 is the one both we and UPS print.
 */
export function buildShipRequest(r: PurchaseRequest, accountNumber: string): UpsCall {
  const format = shipImageFormat(r.labelFormat);
  return {
    path: `/api/shipments/${apiVersion}/ship`,
    body: {
      ShipmentRequest: {
        Request: { RequestOption: 'nonvalidate', TransactionReference: { CustomerContext: r.idempotencyKey } },
        Shipment: {
          Description: r.reference ?? 'shipd shipment',
          Shipper: { ...party(r.from, false), ShipperNumber: accountNumber },
          ShipFrom: party(r.from, false),
          ShipTo: party(r.to, true),
          PaymentInformation: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] },
          Service: { Code: r.service },
          // Print Return Label: the label the customer sticks on the parcel they send back.
          ...(r.isReturn ? { ReturnService: { Code: '9' } } : {}),
          Package: [
            {
              Packaging: { Code: '02' },
              ...upsPackageMeasures(r.parcel),
              ...(r.reference ? { ReferenceNumber: [{ Value: r.reference.slice(0, 35) }] } : {}),
            },
          ],
          ShipmentRatingOptions: { NegotiatedRatesIndicator: '' },
        },
        LabelSpecification: {
          LabelImageFormat: { Code: format },
          ...(format === 'ZPL' ? { LabelStockSize: { Height: '6', Width: '4' } } : { HTTPUserAgent: 'Mozilla/4.5' }),
        },
      },
    },
  };
}

export interface UpsShipment {
  trackingNumber: string;
  /** ShipmentIdentificationNumber, the key a void needs. */
  shipmentId: string;
  postageCents: number;
  currency: string;
  label: { format: string; bytes: Buffer };
}

/** PackageResults may be one object on older versions (carriers.md 2.2); we ship one package, so the first is it. */
export function parseShipResponse(json: unknown): CarrierResult<UpsShipment> {
  const results = at(json, 'ShipmentResponse', 'ShipmentResults');
  if (results === undefined) return failure('carrier_error', 'UPS ship answer has no ShipmentResponse.ShipmentResults');
  const shipmentId = asString(at(results, 'ShipmentIdentificationNumber'));
  const pkg = asArray(at(results, 'PackageResults'))[0];
  const trackingNumber = asString(at(pkg, 'TrackingNumber')) ?? shipmentId;
  const image = asString(at(pkg, 'ShippingLabel', 'GraphicImage'));
  const postageCents = asCents(at(results, 'NegotiatedRateCharges', 'TotalCharge', 'MonetaryValue')) ?? asCents(at(results, 'ShipmentCharges', 'TotalCharges', 'MonetaryValue'));
  if (!shipmentId || !trackingNumber) return failure('carrier_error', 'UPS ship answer has no ShipmentIdentificationNumber or TrackingNumber');
  if (!image) return failure('carrier_error', `UPS ship answer for ${shipmentId} has no ShippingLabel.GraphicImage`);
  if (postageCents === undefined) return failure('carrier_error', `UPS ship answer for ${shipmentId} has no TotalCharges`);
  return ok({
    trackingNumber,
    shipmentId,
    postageCents,
    currency: currencyOf(at(results, 'NegotiatedRateCharges', 'TotalCharge', 'CurrencyCode') ?? at(results, 'ShipmentCharges', 'TotalCharges', 'CurrencyCode')),
    label: { format: asString(at(pkg, 'ShippingLabel', 'ImageFormat', 'Code'))?.toUpperCase() ?? '', bytes: Buffer.from(image, 'base64') },
  });
}
