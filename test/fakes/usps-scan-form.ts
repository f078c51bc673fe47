import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts } from '../contracts/check.ts';
import { ScanFormRequest } from '../contracts/usps/scan-forms.ts';
import { labelPdf } from './label-files.ts';
import { sendJson } from './server.ts';

// The fake USPS's SCAN Form API (scan-forms.yaml 3.1.14): POST /scan-forms/v3/scan-form, held against
// ScanFormRequest (the 40,000 tracking numbers a form lists among it), then against the spec's label eligibility
// rules: a label USPS sold and that is not cancelled, not on a form already, of the form's mailingDate (unless
// overwriteMailingDate) and entered at the form's entryFacilityZIPCode. The answer is the
// application/vnd.usps.labels+json document (SCANFormVendorResponse) with an Electronic File Number and the form.
// The spec publishes no error codes for this API, so each refusal's code is its HTTP status, and only the wording differs.

/** What the SCAN form API needs to know of a label the fake sold. */
export interface ScanFormLabelFacts {
  mailingDate: string;
  fromZip: string;
  cancelled: boolean;
}

export interface ScanFormFake {
  /** Every form made, in order: its EFN and its tracking numbers. */
  forms: { manifestNumber: string; trackingNumbers: string[]; mailingDate: string; entryFacilityZIPCode: string }[];
  /** The form a label is on, by tracking number. */
  formOf(trackingNumber: string): string | undefined;
  /** The next SCAN form request is refused with this USPS error detail, as a 400 naming shipment.trackingNumbers. */
  refuseNext: string | null;
  /**
   * The next SCAN form request is never answered: `before` making the form (USPS never got to it), or `after` (USPS
   * made it and the answer was lost). `asked` counts the requests that reached the route.
   */
  hangNext: 'before' | 'after' | null;
  asked: number;
}

type Refused = (res: ServerResponse, api: string, checks: [TSchema, unknown][], rules?: () => string[]) => boolean;
type Bad = (res: ServerResponse, api: string, code: string, detail: string, parameter: string) => void;

const api = '/scan-forms/v3';
const get = (v: unknown, key: string): unknown => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

/** The SCAN form route and its state; `facts` reads a label the fake sold, `refused` and `bad` answer in USPS's envelope. */
export function scanFormRoute(facts: (trackingNumber: string) => ScanFormLabelFacts | undefined, refused: Refused, bad: Bad) {
  compileContracts([ScanFormRequest]);
  const onForm = new Map<string, string>();
  const state: ScanFormFake = { forms: [], formOf: (tn) => onForm.get(tn), refuseNext: null, hangNext: null, asked: 0 };

  function handle(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    state.asked++;
    const hang = state.hangNext;
    state.hangNext = null;
    if (hang === 'before') return;
    if (refused(res, api, [[ScanFormRequest, body]])) return;
    if (state.refuseNext) {
      const detail = state.refuseNext;
      state.refuseNext = null;
      return bad(res, api, '400', detail, 'shipment.trackingNumbers');
    }
    const trackingNumbers = get(get(body, 'shipment'), 'trackingNumbers');
    if (!Array.isArray(trackingNumbers)) return bad(res, api, '400', 'shipd\'s fake makes SCAN forms from a list of tracking numbers only', 'shipment');
    const mailingDate = String(get(body, 'mailingDate'));
    const zip = String(get(body, 'entryFacilityZIPCode'));
    const overwrite = get(body, 'overwriteMailingDate') === true;
    for (const tn of trackingNumbers as string[]) {
      const label = facts(tn);
      if (!label || label.cancelled) return bad(res, api, '400', `Tracking number ${tn} was not found or is not eligible for a SCAN Form.`, 'shipment.trackingNumbers');
      if (onForm.has(tn)) return bad(res, api, '400', `Tracking number ${tn} has already been added to a SCAN Form.`, 'shipment.trackingNumbers');
      if (!overwrite && label.mailingDate !== mailingDate) return bad(res, api, '400', `Tracking number ${tn} has mailing date ${label.mailingDate}, not ${mailingDate}.`, 'mailingDate');
      if (label.fromZip !== zip) return bad(res, api, '400', `Tracking number ${tn} is not entered at entry facility ZIP ${zip}.`, 'entryFacilityZIPCode');
    }
    if (new Set(trackingNumbers).size !== trackingNumbers.length) return bad(res, api, '400', 'A tracking number is listed twice.', 'shipment.trackingNumbers');
    const manifestNumber = `92750${String(state.forms.length + 1).padStart(17, '0')}`;
    for (const tn of trackingNumbers as string[]) onForm.set(tn, manifestNumber);
    state.forms.push({ manifestNumber, trackingNumbers: [...(trackingNumbers as string[])], mailingDate, entryFacilityZIPCode: zip });
    // The page names the form by its EFN, as the real form prints it beside its barcode.
    const image = labelPdf(`EFN ${manifestNumber}`).toString('base64');
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('application/vnd.usps.labels+json')) {
      return bad(res, api, '400', 'shipd\'s fake answers SCAN forms as application/vnd.usps.labels+json only', 'Accept');
    }
    if (hang === 'after') return;
    const { shipment: _shipment, ...metadata } = body as Record<string, unknown>;
    sendJson(res, 200, { ...metadata, shipment: { trackingNumbers }, manifestNumber, trackingNumbers, SCANFormImage: image }, { 'content-type': 'application/vnd.usps.labels+json' });
  }

  return { state, handle };
}
