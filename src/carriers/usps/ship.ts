import { failure, ok, type CarrierResult, type PurchasedLabel, type PurchaseRequest } from '../carrier.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import { asCents, asString, at } from '../live/lenient.ts';
import { toUspsAddress, uspsDimensions, ymd } from './fields.ts';

export const labelPath = '/labels/v3/label';
/** Asks for one JSON object with a base64 labelImage instead of the default multipart answer (carriers.md 3.3). */
export const labelAccept = 'application/vnd.usps.labels+json';

/** Our label formats as `imageInfo.imageType`; USPS offers all three, ZPL at 203 dpi like common thermal printers. */
const imageTypes: Record<LabelFormat, string> = { pdf: 'PDF', zpl: 'ZPL203DPI', png: 'PNG' };

export function buildLabelRequest(r: PurchaseRequest): Record<string, unknown> {
  return {
    imageInfo: {
      imageType: imageTypes[r.labelFormat],
      labelType: '4X6LABEL',
      receiptOption: 'NONE',
      suppressPostage: false,
      suppressMailDate: false,
      returnLabel: false,
    },
    toAddress: toUspsAddress(r.to),
    fromAddress: toUspsAddress(r.from),
    packageDescription: {
      mailClass: r.service,
      // Single piece: the parcel's own packaging, priced by weight and zone, as the rate search quoted it.
      rateIndicator: 'SP',
      weightUOM: 'lb',
      weight: r.parcel.weightLb,
      dimensionsUOM: 'in',
      ...uspsDimensions(r.parcel),
      processingCategory: 'MACHINABLE',
      mailingDate: ymd(r.shipDate),
      destinationEntryFacilityType: 'NONE',
    },
    ...(r.reference ? { customerReference: [{ referenceNumber: r.reference, printReferenceNumber: true }] } : {}),
  };
}

/** The `application/vnd.usps.labels+json` answer: `labelMetadata` beside the base64 `labelImage`. */
export function parseLabel(json: unknown, format: LabelFormat): CarrierResult<PurchasedLabel> {
  // The metadata sits under labelMetadata in the JSON form; some answers flatten it to the top level.
  const meta = at(json, 'labelMetadata') ?? json;
  const trackingNumber = asString(at(meta, 'trackingNumber'))?.replace(/\s+/g, '');
  if (!trackingNumber) return failure('carrier_error', 'USPS sold a label without a trackingNumber');
  const postageCents = asCents(at(meta, 'postage'));
  if (postageCents === undefined) return failure('carrier_error', `USPS sold label ${trackingNumber} without a postage amount`);
  const image = asString(at(json, 'labelImage'));
  if (!image || !/^[A-Za-z0-9+/=\s]+$/.test(image)) return failure('carrier_error', `USPS sold label ${trackingNumber} without a base64 labelImage`);
  return ok({ trackingNumber, carrierShipmentId: trackingNumber, postageCents, currency: 'USD', file: { format, bytes: Buffer.from(image, 'base64') } });
}
