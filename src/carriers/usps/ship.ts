import { failure, labelReferences, ok, type CarrierResult, type ParcelSpec, type DomesticPurchaseRequest, type PurchasedLabel, type PurchaseRequest } from '../carrier.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import { clipReference, processingCategory, rateIndicator, toUspsAddress, uspsDimensions, ymd } from './fields.ts';
import { uspsIdempotencyKey } from './idempotency.ts';
import { labelFormatOf } from '../live/image-kind.ts';
import { returnClassOf } from './mail-classes.ts';
import { extrasToLabel, noExtras, uspsExtras, type UspsExtras } from './extra-services.ts';
import { holdToAddress } from './hold.ts';

export const labelPath = '/labels/v3/label';
export const returnLabelPath = '/labels/v3/return-label';
/** Asks for one JSON object with a base64 labelImage instead of the default multipart answer (carriers.md 3.3). */
export const labelAccept = 'application/vnd.usps.labels+json';

/** The headers of both label operations: the JSON answer, the payment authorization and the idempotency UUID. */
export function labelHeaders(paymentToken: string, purchaseKey: string): Record<string, string> {
  return { accept: labelAccept, 'x-payment-authorization-token': paymentToken, 'x-idempotency-key': uspsIdempotencyKey(purchaseKey) };
}

/** Our label formats as `imageInfo.imageType`; USPS offers all three, ZPL at 203 or 300 dpi. */
export function uspsImageType(r: Pick<PurchaseRequest, 'labelFormat' | 'labelResolution'>): string {
  if (r.labelFormat === 'zpl') return r.labelResolution === 300 ? 'ZPL300DPI' : 'ZPL203DPI';
  return r.labelFormat === 'png' ? 'PNG' : 'PDF';
}

/** The parcel as every label operation describes it, priced as the rate search quoted it (rate.ts). */
export function parcelOf(r: { parcels: ParcelSpec[] }, extras: UspsExtras = noExtras) {
  return {
    rateIndicator,
    weightUOM: 'lb',
    weight: r.parcels[0]!.weightLb,
    dimensionsUOM: 'in',
    ...uspsDimensions(r.parcels[0]!),
    processingCategory: processingCategory(r.parcels[0]!, extras.nonstandard),
  };
}

/**
 * The extra services of the options on the label's service (extra-services.ts). The adapter refuses a service that
 * does not do them before anything is built (liveOptionsRefusal), so every option asked is here.
 */
const extrasOf = (r: Pick<PurchaseRequest, 'service' | 'options'>): UspsExtras => uspsExtras(r.service, r.options) ?? noExtras;

/**
 * `packageDescription.customerReference[]` is where the spec puts references (DomesticCustomerReference), each
 * printed: the label's own, which fit (label-options.ts), else the order number clipped to 30 characters.
 */
export function uspsReferences(r: Pick<PurchaseRequest, 'reference' | 'references'>) {
  const refs = labelReferences(r, 30).map(clipReference);
  return refs.length > 0 ? { customerReference: refs.map((referenceNumber) => ({ referenceNumber, printReferenceNumber: true })) } : {};
}

/**
 * `POST /labels/v3/label`: an outbound label (LabelRequest, domestic-labels.yaml 3.9.13) of the first parcel, held at
 * the Post Office asked for (hold.ts), whose holdRefusal the adapter has checked.
 */
export function buildLabelRequest(r: DomesticPurchaseRequest): Record<string, unknown> {
  const extras = extrasOf(r);
  return {
    imageInfo: {
      imageType: uspsImageType(r),
      labelType: '4X6LABEL',
      receiptOption: 'NONE',
      suppressPostage: false,
      suppressMailDate: false,
      returnLabel: false,
    },
    toAddress: { ...toUspsAddress(r.to), ...holdToAddress(r.options) },
    fromAddress: toUspsAddress(r.from),
    packageDescription: {
      mailClass: r.service,
      ...parcelOf(r, extras),
      mailingDate: ymd(r.shipDate),
      destinationEntryFacilityType: 'NONE',
      ...uspsReferences(r),
      ...extrasToLabel(r.parcels[0]!, extras, true),
    },
  };
}

/**
 * `POST /labels/v3/return-label` (ReturnLabelRequest): the customer (`from`) sends the parcel back to the merchant
 * (`to`) in the return class of the service. There is no mailing date: the customer mails it when they do, and
 * USPS manifests return labels the day after they are made. The image options suppressPostage, suppressMailDate
 * and returnLabel are deprecated for returns and left out, as in the spec's GroundAdvantageReturnLabelRequest.
 * USPS return labels are pay on use, charged when USPS first scans them (the Labels v3 spec calls the return label
 * it sells "a pay on use returns label", imageInfo.returnLabel), so a `charge: "on_use"` return asks nothing more.
 */
export function buildReturnLabelRequest(r: DomesticPurchaseRequest): CarrierResult<Record<string, unknown>> {
  const mailClass = returnClassOf(r.service);
  if (!mailClass) return failure('service_unavailable', `USPS sells no return label for ${r.service}; a USPS return can go by USPS Ground Advantage, Priority Mail or Priority Mail Express`);
  return ok({
    imageInfo: { imageType: uspsImageType(r), labelType: '4X6LABEL', receiptOption: 'NONE' },
    toAddress: toUspsAddress(r.to),
    fromAddress: toUspsAddress(r.from),
    packageDescription: { mailClass, ...parcelOf(r, extrasOf(r)), ...uspsReferences(r), ...extrasToLabel(r.parcels[0]!, extrasOf(r), false) },
  });
}

/**
 * Postage, fees and extra services USPS charged for the label (LabelMetadata / ReturnLabelMetadata), in cents:
 * `postage` "does not include insurance or other extra service fees", which extraServices[].price itemizes.
 */
function chargedCents(meta: unknown): number | undefined {
  const postage = asCents(at(meta, 'postage'));
  if (postage === undefined) return undefined;
  const priced = [...asArray(at(meta, 'fees')), ...asArray(at(meta, 'extraServices'))].map((f) => asCents(at(f, 'price')) ?? 0);
  return priced.reduce((sum, cents) => sum + cents, postage);
}

/**
 * The `application/vnd.usps.labels+json` answer (LabelVendorResponse / ReturnLabelVendorResponse): the metadata
 * at the top level beside `labelImage`, or `returnLabelImage` for a return label. Older answers nest the metadata
 * under `labelMetadata`. The amount charged is the postage plus every fee and extra service USPS lists with it.
 */
export function parseLabel(json: unknown): CarrierResult<PurchasedLabel> {
  const meta = at(json, 'labelMetadata') ?? json;
  const trackingNumber = asString(at(meta, 'trackingNumber'))?.replace(/\s+/g, '');
  if (!trackingNumber) return failure('carrier_error', 'USPS sold a label without a trackingNumber');
  const postageCents = chargedCents(meta);
  if (postageCents === undefined) return failure('carrier_error', `USPS sold label ${trackingNumber} without a postage amount`);
  const image = asString(at(json, 'labelImage')) ?? asString(at(json, 'returnLabelImage'));
  if (!image || !/^[A-Za-z0-9+/=\s]+$/.test(image)) return failure('carrier_error', `USPS sold label ${trackingNumber} without a base64 label image`);
  const bytes = Buffer.from(image, 'base64');
  const format = labelFormatOf(bytes);
  if (!format) {
    return failure('carrier_error', `USPS sold label ${trackingNumber} as a file that is neither PDF, PNG nor ZPL (starts ${JSON.stringify(bytes.subarray(0, 8).toString('latin1'))}); buy again with the same key to get it back`);
  }
  // USPS states no currency; its postage is in US dollars, the only currency of the domestic price lists it sells from.
  return ok({ trackingNumber, carrierShipmentId: trackingNumber, postageCents, currency: 'USD', file: { format, bytes } });
}
