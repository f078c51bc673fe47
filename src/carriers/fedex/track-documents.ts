import { failure, ok, type CarrierResult, type ProofOfDelivery } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';

/*
 * FedEx's signature proof of delivery (SPOD): POST /track/v1/trackingdocuments, schema Full_Schema_SPOD of
 * track/v1/TrackingDocuments-Resource.json in ShipStream/fedex-rest-php-sdk resources/models/.raw/ at commit
 * bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17): "a letter that includes the recipient's signature as a proof
 * of delivery". trackDocumentDetail.documentType SIGNATURE_PROOF_OF_DELIVERY, documentFormat PDF or PNG (default
 * PDF); the answer's output.document is a list of base64 strings in output.documentFormat.
 */
export const trackDocumentsPath = '/track/v1/trackingdocuments';

export function buildSpodRequest(trackingNumber: string) {
  return {
    trackDocumentDetail: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: 'PDF' },
    trackDocumentSpecification: [{ trackingNumberInfo: { trackingNumber } }],
  };
}

const contentTypes: Record<string, string> = { PDF: 'application/pdf', PNG: 'image/png' };

/** The SPOD letters FedEx sent; none where it has none (it then answers alerts, such as TRACKING.DATA.NOTFOUND). */
export function parseSpodResponse(json: unknown): CarrierResult<ProofOfDelivery[]> {
  const output = at(json, 'output');
  if (output === undefined) return failure('carrier_error', 'FedEx answered the tracking documents request without output');
  const format = (asString(at(output, 'documentFormat')) ?? 'PDF').toUpperCase();
  const contentType = contentTypes[format];
  const documents = asArray(at(output, 'document'))
    .map((d) => asString(d)?.trim())
    .filter((d): d is string => d !== undefined && d !== '');
  if (documents.length > 0 && !contentType) return failure('carrier_error', `FedEx sent its proof of delivery as ${format}, a format its documents call does not list`);
  return ok(documents.map((content) => ({ type: 'document' as const, content, contentType: contentType! })));
}
