import { failure, ok, type CarrierResult, type CloseOutcome, type CloseRequest } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';

// FedEx Ground End of Day Close: `PUT /ship/v1/endofday/` (operationId groundPerformEndOfDayClose). Source: the
// FedEx developer portal's Ship EndofDayClose API 1.0.0 as kept in ShipStream/fedex-rest-php-sdk
// resources/models/.raw/ground-eod-close/v1/ShipmentCloseAPI-Resource.json (commit
// e97206763684cce58dba6682a5d125b1c864318b): FullSchema_GEOD_PUT, CloseDocumentSpecification, SHPCResponseVO,
// EndOfDayCloseOutputVO, CloseDocument and ShippingDocumentPart.

export const endOfDayPath = '/ship/v1/endofday/';

/** The services FedEx Ground carries, whose shipments the Ground close submits; Express needs no close. */
export const groundServices: ReadonlySet<string> = new Set(['FEDEX_GROUND', 'GROUND_HOME_DELIVERY']);

/** The day's Ground close for the account (closeReqType GCDR, category GROUND), asking for the MANIFEST report. */
export function buildEndOfDayRequest(accountNumber: string, closeDate: string): Record<string, unknown> {
  return {
    closeReqType: 'GCDR',
    groundServiceCategory: 'GROUND',
    accountNumber: { value: accountNumber },
    closeDate,
    closeDocumentSpecification: { closeDocumentTypes: ['MANIFEST'] },
  };
}

/** The labels the close is for: the request's Ground ones; none means no close is needed. */
export function groundTrackingNumbers(request: CloseRequest): string[] {
  return request.labels.filter((l) => groundServices.has(l.service)).flatMap((l) => l.trackingNumbers);
}

/**
 * The close's reports: each closeDocuments entry whose parts join into a PDF is kept (the parts in their
 * documentPartSequenceNumber order, each Base64); one in another format (printer commands) is not kept. The close
 * gives no number of its own: the report's shippingCycle, where given, stands for it.
 */
export function parseEndOfDay(json: unknown, trackingNumbers: string[]): CarrierResult<CloseOutcome> {
  const output = at(json, 'output');
  if (!output || typeof output !== 'object') return failure('carrier_error', 'FedEx answered the Ground close without an output');
  const documents = asArray(at(output, 'closeDocuments'));
  const pdfs: Buffer[] = [];
  let cycle: string | null = null;
  for (const doc of documents) {
    cycle ??= asString(at(doc, 'shippingCycle')) ?? null;
    const parts = asArray(at(doc, 'parts'))
      .map((p) => ({ n: Number(at(p, 'documentPartSequenceNumber') ?? 0), image: asString(at(p, 'image')) ?? '' }))
      .sort((a, b) => a.n - b.n);
    const bytes = Buffer.concat(parts.map((p) => Buffer.from(p.image, 'base64')));
    if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') pdfs.push(bytes);
  }
  return ok({ required: true, forms: [{ kind: 'fedex_ground_close', number: cycle, trackingNumbers, pdfs }] });
}
