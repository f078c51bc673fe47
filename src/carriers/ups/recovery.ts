import { failure, ok, type CarrierResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { labelRecoveryVersion, type UpsCall } from './wire.ts';

/**
 * The Shipping API prints no PDF; Label Recovery does (carriers.md 2.4), so a PDF label is the shipment's label
 * fetched again in that format.
 */
export function buildLabelRecoveryRequest(trackingNumber: string): UpsCall {
  return {
    path: `/api/labels/${labelRecoveryVersion}/recovery`,
    body: {
      LabelRecoveryRequest: {
        LabelSpecification: { LabelImageFormat: { Code: 'PDF' }, HTTPUserAgent: 'Mozilla/4.5' },
        TrackingNumber: trackingNumber,
      },
    },
  };
}

/** LabelResults, like the other UPS lists, may be one object. */
export function parseLabelRecoveryResponse(json: unknown): CarrierResult<Buffer> {
  const result = asArray(at(json, 'LabelRecoveryResponse', 'LabelResults'))[0];
  const image = asString(at(result, 'LabelImage', 'GraphicImage'));
  if (!image) return failure('carrier_error', 'UPS label recovery answer has no LabelResults.LabelImage.GraphicImage');
  const bytes = Buffer.from(image, 'base64');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return failure('carrier_error', 'UPS label recovery answer is not a PDF');
  return ok(bytes);
}
