import type { Address } from '../../schemas/address.ts';
import { failure, ok, type CarrierForm, type CarrierResult, type ClosingLabel } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { toUspsAddress } from './fields.ts';

// USPS SCAN Forms v3 (PS Form 5630): one form whose barcode, scanned at acceptance, accepts every label on it.
// Source: scan-forms.yaml version 3.1.14 (karrioapi/karrio modules/connectors/usps/vendor/, commit
// deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), operation post-scan-form and components SCANFormRequest,
// LabelShipment, SCANFormAddress and SCANFormVendorResponse.

export const scanFormPath = '/scan-forms/v3/scan-form';

/** LabelShipment.trackingNumbers `maxItems`: the most labels one SCAN form lists. */
export const scanFormMaxLabels = 40_000;

/**
 * The JSON answer with the form's image inside (SCANFormVendorResponse), instead of the default multipart one: the
 * metadata and the Base64 PDF in one document.
 */
export const scanFormAccept = 'application/vnd.usps.labels+json';

/** One SCAN form to ask for: labels of one origin, entry ZIP and mailing date, at most scanFormMaxLabels of them. */
export interface ScanFormBatch {
  from: Address;
  mailingDate: string;
  trackingNumbers: string[];
}

/**
 * The forms the day's labels need. The spec's eligibility rules: every label on a form has the same
 * entryFacilityZIPCode, destinationEntryFacilityType and mailingDate, so labels of each origin (entered at the post
 * office of their ZIP, type NONE) go on forms of their own; and a form lists at most `max` tracking numbers, so a
 * larger origin is split into forms of `max`, the last one holding the rest.
 */
export function scanFormBatches(mailingDate: string, labels: readonly ClosingLabel[], max = scanFormMaxLabels): ScanFormBatch[] {
  const byOrigin = new Map<string, { from: Address; trackingNumbers: string[] }>();
  for (const label of labels) {
    const f = label.from;
    const key = JSON.stringify([f.zip.slice(0, 5), f.street1.toUpperCase(), (f.street2 ?? '').toUpperCase(), f.city.toUpperCase(), f.state.toUpperCase()]);
    const group = byOrigin.get(key) ?? { from: f, trackingNumbers: [] };
    group.trackingNumbers.push(...label.trackingNumbers);
    byOrigin.set(key, group);
  }
  const batches: ScanFormBatch[] = [];
  for (const { from, trackingNumbers } of byOrigin.values()) {
    for (let i = 0; i < trackingNumbers.length; i += max) batches.push({ from, mailingDate, trackingNumbers: trackingNumbers.slice(i, i + max) });
  }
  return batches;
}

/**
 * The request for one form: the tracking numbers listed (LabelShipment), entered at the origin's own post office
 * (its ZIP, facility type NONE), as a letter-size PS Form 5630 in PDF. The shipper is named by first and last name
 * or by firm, as SCANFormAddress requires; a one-word name with no company goes as the firm.
 */
export function buildScanFormRequest(batch: ScanFormBatch): Record<string, unknown> {
  const { firstName, lastName, firm, streetAddress, secondaryAddress, city, state, ZIPCode, ZIPPlus4 } = toUspsAddress(batch.from);
  const named = firstName && lastName ? { firstName, lastName } : {};
  const company = firm ?? (firstName && !lastName ? firstName : undefined);
  return {
    imageInfo: { imageType: 'PDF', labelType: '8.5X11LABEL' },
    mailingDate: batch.mailingDate,
    overwriteMailingDate: false,
    entryFacilityZIPCode: ZIPCode,
    destinationEntryFacilityType: 'NONE',
    shipment: { trackingNumbers: batch.trackingNumbers },
    fromAddress: {
      ...named,
      ...(company ? { firm: company } : {}),
      streetAddress,
      ...(secondaryAddress ? { secondaryAddress } : {}),
      city,
      state,
      ZIPCode,
      ...(ZIPPlus4 ? { ZIPPlus4 } : {}),
    },
  };
}

/**
 * The form USPS made: its Electronic File Number (manifestNumber), the tracking numbers it says it added, and the
 * PDF. USPS adds only eligible labels; one asked for that it left off would not be accepted with the form, so the
 * answer is refused rather than the label counted as handed over.
 */
export function parseScanForm(json: unknown, asked: readonly string[]): CarrierResult<CarrierForm> {
  const number = asString(at(json, 'manifestNumber'));
  if (!number) return failure('carrier_error', 'USPS answered the SCAN form without its manifestNumber');
  const listed = asArray(at(json, 'trackingNumbers') ?? at(json, 'shipment', 'trackingNumbers')).flatMap((t) => (typeof t === 'string' ? [t] : []));
  const added = new Set(listed);
  const missing = asked.filter((t) => !added.has(t));
  if (missing.length > 0) {
    return failure('manifest_rejected', `USPS made SCAN form ${number} without ${missing.length} of the ${asked.length} labels (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}); they are not on a form`);
  }
  const image = asString(at(json, 'SCANFormImage'));
  if (!image) return failure('carrier_error', `USPS answered SCAN form ${number} without its image`);
  const pdf = Buffer.from(image, 'base64');
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') return failure('carrier_error', `USPS answered SCAN form ${number} with an image that is not a PDF`);
  return ok({ kind: 'usps_scan_form', number, trackingNumbers: [...asked], pdfs: [pdf] });
}
