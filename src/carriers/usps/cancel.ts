import { failure, ok, type CarrierFailure, type CarrierResult, type VoidOutcome } from '../carrier.ts';
import { asString, at } from '../live/lenient.ts';
import { readProblem, uspsFailure } from './errors.ts';

export const cancelPath = (trackingNumber: string): string => `/labels/v3/label/${encodeURIComponent(trackingNumber)}`;

/**
 * CANCELED: no manifest yet, the label is gone and nothing was charged for good. DISPUTED: a manifest exists and
 * USPS reviews a refund request, so the money comes back later (carriers.md 3.4).
 */
const outcomes: Record<string, VoidOutcome> = { CANCELED: 'refunded', CANCELLED: 'refunded', DISPUTED: 'refund_pending' };

export function parseCancel(json: unknown): CarrierResult<VoidOutcome> {
  const status = asString(at(json, 'status'))?.toUpperCase();
  const outcome = status ? outcomes[status] : undefined;
  return outcome ? ok(outcome) : failure('carrier_error', `USPS answered the cancel with status ${JSON.stringify(status ?? null)}`);
}

/** The documented refusals (carriers.md 3.4), by their detail text; first match wins. */
const refusals: { pattern: RegExp; code: CarrierFailure['code'] }[] = [
  { pattern: /already been submitted|already (been )?cancel+ed|already refunded/i, code: 'already_voided' },
  { pattern: /cannot be (submitted|cancel+ed)|in transit|has been (scanned|accepted|delivered)/i, code: 'label_in_transit' },
];

export function parseCancelError(status: number, json: unknown, trackingNumber: string): CarrierFailure {
  const problem = readProblem(json);
  for (const text of [...(problem?.errors.map((e) => e.detail) ?? []), problem?.message ?? '']) {
    const hit = refusals.find((r) => r.pattern.test(text));
    if (hit) return { code: hit.code, detail: `USPS would not cancel ${trackingNumber}: ${text}` };
  }
  return uspsFailure(status, json, `the cancel of ${trackingNumber}`);
}
