import { failure, ok, type CarrierResult } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { labelRecoverySubVersion, labelRecoveryVersion, type UpsCall } from './wire.ts';

/**
 * The Shipping API prints no PDF; Label Recovery does, so a PDF label is the shipment's label fetched again in
 * that format. Shipping.yaml's LabelRecoveryRequest requires the Request container; LabelSpecification is "Required
 * for the shipment without return service, or shipment with PRL return service", which covers every label shipd buys.
 */
export function buildLabelRecoveryRequest(trackingNumber: string): UpsCall {
  return {
    path: `/api/labels/${labelRecoveryVersion}/recovery`,
    body: {
      LabelRecoveryRequest: {
        Request: { SubVersion: labelRecoverySubVersion, TransactionReference: { CustomerContext: 'shipd label recovery' } },
        LabelSpecification: { LabelImageFormat: { Code: 'PDF' }, HTTPUserAgent: 'Mozilla/4.5' },
        TrackingNumber: trackingNumber,
      },
    },
  };
}

/**
 * LabelResults, like the other UPS lists, may be one object. Of several, the one of `trackingNumber` when given (a
 * box of a multi-piece shipment): another box's label is never handed out for it. The bytes are whatever UPS sent;
 * the caller reads their format.
 */
export function parseLabelRecoveryResponse(json: unknown, trackingNumber?: string): CarrierResult<Buffer> {
  const results = asArray(at(json, 'LabelRecoveryResponse', 'LabelResults'));
  const result =
    trackingNumber === undefined || results.length === 1 ? results[0] : results.find((r) => asString(at(r, 'TrackingNumber'))?.toUpperCase() === trackingNumber.toUpperCase());
  if (results.length > 1 && !result) return failure('carrier_error', `UPS label recovery answered ${results.length} labels, none of them ${trackingNumber}'s`);
  const image = asString(at(result, 'LabelImage', 'GraphicImage'));
  if (!image) return failure('carrier_error', 'UPS label recovery answer has no LabelResults.LabelImage.GraphicImage');
  return ok(Buffer.from(image, 'base64'));
}
