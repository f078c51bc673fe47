import { currencyOf } from '../live/currency.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import { failure, ok, type CarrierResult, type PurchasedLabel, type PurchaseRequest } from '../carrier.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import { fedexAddress, fedexDate, fedexDimensions, isResidential, usPhone } from './party.ts';
import type { Address } from '../../schemas/address.ts';

export const shipPath = '/ship/v1/shipments';

/** Our label formats as FedEx image and stock types; the stock must match the image type (carriers.md 4.4). */
const labelSpecs: Readonly<Record<LabelFormat, { imageType: string; labelStockType: string }>> = {
  pdf: { imageType: 'PDF', labelStockType: 'PAPER_4X6' },
  png: { imageType: 'PNG', labelStockType: 'PAPER_4X6' },
  zpl: { imageType: 'ZPLII', labelStockType: 'STOCK_4X6' },
};

const docTypes: Readonly<Record<string, LabelFormat>> = { PDF: 'pdf', PNG: 'png', ZPLII: 'zpl' };

function party(a: Address, phone: string, residential?: boolean) {
  return {
    contact: { personName: a.name ?? a.company, ...(a.company ? { companyName: a.company } : {}), phoneNumber: phone },
    address: fedexAddress(a, residential),
  };
}

function shipBody(request: PurchaseRequest, accountNumber: string, shipperPhone: string) {
  const dimensions = fedexDimensions(request.parcel.dimensionsIn);
  return {
    labelResponseOptions: 'LABEL',
    accountNumber: { value: accountNumber },
    requestedShipment: {
      shipper: party(request.from, shipperPhone),
      recipients: [party(request.to, usPhone(request.to.phone) ?? shipperPhone, isResidential(request.to))],
      shipDatestamp: fedexDate(request.shipDate),
      serviceType: request.service,
      packagingType: 'YOUR_PACKAGING',
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      shippingChargesPayment: { paymentType: 'SENDER' },
      labelSpecification: { ...labelSpecs[request.labelFormat], labelFormatType: 'COMMON2D' },
      totalWeight: request.parcel.weightLb,
      requestedPackageLineItems: [
        {
          weight: { units: 'LB', value: request.parcel.weightLb },
          ...(dimensions ? { dimensions } : {}),
          ...(request.reference ? { customerReferences: [{ customerReferenceType: 'CUSTOMER_REFERENCE', value: request.reference.slice(0, 30) }] } : {}),
        },
      ],
    },
  };
}

export type FedexShipBody = ReturnType<typeof shipBody>;

/**
 * FedEx requires a 10-digit phone for both parties (carriers.md 4.4). A recipient without one is given the
 * shipper's, as the label needs a number to call; a shipper without one cannot ship.
 */
export function buildShipRequest(request: PurchaseRequest, accountNumber: string): CarrierResult<FedexShipBody> {
  const shipperPhone = usPhone(request.from.phone);
  if (!shipperPhone) return failure('address_invalid', 'FedEx needs a 10-digit phone number for the ship-from address');
  return ok(shipBody(request, accountNumber, shipperPhone));
}

/**
 * output.transactionShipments[0]: the master tracking number, the label FedEx encoded inline (we ask for LABEL,
 * not URL_ONLY), and the net charge, falling back to the quoted price when FedEx states none.
 */
export function parseShipResponse(json: unknown, request: PurchaseRequest): CarrierResult<PurchasedLabel> {
  const shipment = asArray(at(json, 'output', 'transactionShipments'))[0];
  if (!shipment) return failure('carrier_error', 'FedEx answered the shipment request without output.transactionShipments');
  const pieces = asArray(at(shipment, 'pieceResponses'));
  const trackingNumber =
    asString(at(shipment, 'masterTrackingNumber')) ??
    asString(at(shipment, 'completedShipmentDetail', 'masterTrackingId', 'trackingNumber')) ??
    asString(at(pieces[0], 'trackingNumber'));
  if (!trackingNumber) return failure('carrier_error', 'FedEx sold a shipment but gave no tracking number');
  const documents = [...pieces.flatMap((p) => asArray(at(p, 'packageDocuments'))), ...asArray(at(shipment, 'shipmentDocuments'))];
  const label = documents.find((d) => (asString(at(d, 'contentType')) ?? 'LABEL').toUpperCase() === 'LABEL' && asString(at(d, 'encodedLabel')));
  if (!label) return failure('carrier_error', `FedEx sold shipment ${trackingNumber} but sent no label image; void it and buy again`);
  // A document without a docType is in the image type we asked for.
  const docType = asString(at(label, 'docType'))?.toUpperCase();
  const format = docType === undefined ? request.labelFormat : Object.hasOwn(docTypes, docType) ? docTypes[docType] : undefined;
  if (!format) return failure('carrier_error', `FedEx sent shipment ${trackingNumber}'s label as ${docType}, not PDF, PNG or ZPLII`);
  return ok({
    trackingNumber,
    carrierShipmentId: trackingNumber,
    postageCents: netChargeCents(shipment, pieces) ?? request.quotedCents,
    currency: currencyOf(asArray(at(shipment, 'completedShipmentDetail', 'shipmentRating', 'shipmentRateDetails')).map((r) => at(r, 'currency')).find((c) => c !== undefined)),
    file: { format, bytes: Buffer.from(asString(at(label, 'encodedLabel'))!, 'base64') },
  });
}

/** The shipment's rated net charge, else the sum of its pieces' charges when every piece has one. */
function netChargeCents(shipment: unknown, pieces: unknown[]): number | undefined {
  const rated = asArray(at(shipment, 'completedShipmentDetail', 'shipmentRating', 'shipmentRateDetails'));
  const shipmentCharge = rated.map((r) => asCents(at(r, 'totalNetCharge'))).find((c) => c !== undefined);
  if (shipmentCharge !== undefined) return shipmentCharge;
  const pieceCharges = pieces.map((p) => asCents(at(p, 'netChargeAmount')));
  if (pieceCharges.length === 0 || pieceCharges.some((c) => c === undefined)) return undefined;
  return pieceCharges.reduce<number>((sum, c) => sum + c!, 0);
}
