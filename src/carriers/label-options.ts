import type { CarrierId } from '../config.ts';
import type { LabelFormat, LabelResolution, LabelSize } from '../labels/label-data.ts';

/** What a label is asked to be beyond its format: its paper, a thermal printer's dots per inch, and its references. */
export interface LabelAsk {
  format: LabelFormat;
  size: LabelSize;
  resolution: LabelResolution;
  /** The client's own references; undefined where the order number stands in (clipped to fit, never refused). */
  references?: string[];
}

/** What one carrier's label API produces and takes. */
interface LabelCapabilities {
  sizes: Readonly<Record<LabelFormat, readonly LabelSize[]>>;
  zplResolutions: readonly LabelResolution[];
  /** The longest reference every one of its reference fields takes. */
  referenceLength: number;
  /** How many references it prints, at home and abroad. */
  references: { domestic: number; abroad: number };
  /** Its fields, as its reasons name them. */
  sizeField: string;
  referenceField: string;
}

/**
 * Each carrier's label sizes, resolutions and references, from the published specs the contracts in test/contracts
 * cite:
 * - UPS, Shipping.yaml (UPS-API/api-documentation 66148b92, 2026-07-21): LabelStockSize Height "Only valid values are
 *   6 or 8", Width 4, "For EPL2, ZPL and SPL Labels" (its images, GIF, are 4×6); no resolution setting; Package
 *   ReferenceNumber Value 35 characters, "only the first 2 reference numbers will be visible on labels".
 * - FedEx, ship/v1 Shipment-Resource.json (ShipStream/fedex-rest-php-sdk bc94dcd2, 2025-10-17): labelStockType
 *   PAPER_4X6, PAPER_4X8, PAPER_85X11_TOP_HALF_LABEL, STOCK_4X6, STOCK_4X8; resolution "203 & 300 … only allowed for
 *   ZPLII"; customerReferences values of 30 (P_O_NUMBER, INVOICE_NUMBER, CUSTOMER_REFERENCE on Ground).
 * - USPS, domestic-labels.yaml 3.9.13 and international-labels.yaml 3.2.2: labelType 4X4LABEL, 4X5LABEL, 4X6LABEL,
 *   6X4LABEL, 2X7LABEL (no 4×8, no sheet); ZPL203DPI and ZPL300DPI; customerReference referenceNumber 1 to 30, at
 *   most 4 at home and 2 abroad.
 */
const capabilities: Record<CarrierId, LabelCapabilities> = {
  ups: {
    sizes: { pdf: ['4x6'], png: ['4x6'], zpl: ['4x6', '4x8'] },
    zplResolutions: [203],
    referenceLength: 35,
    references: { domestic: 2, abroad: 2 },
    sizeField: 'LabelStockSize, for thermal labels only',
    referenceField: 'ReferenceNumber',
  },
  fedex: {
    sizes: { pdf: ['4x6', '4x8', 'letter'], png: ['4x6', '4x8', 'letter'], zpl: ['4x6', '4x8'] },
    zplResolutions: [203, 300],
    referenceLength: 30,
    references: { domestic: 3, abroad: 3 },
    sizeField: 'labelStockType',
    referenceField: 'customerReferences',
  },
  usps: {
    sizes: { pdf: ['4x6'], png: ['4x6'], zpl: ['4x6'] },
    zplResolutions: [203, 300],
    referenceLength: 30,
    references: { domestic: 3, abroad: 2 },
    sizeField: 'labelType',
    referenceField: 'customerReference',
  },
};

const sizeNames: Record<LabelSize, string> = { '4x6': '4×6', '4x8': '4×8', letter: 'letter (8.5×11)' };

/**
 * What the carrier is asked to print for the size asked: the size itself where it prints it, else, for a letter
 * sheet of a carrier that prints only 4×6 in that format, its 4×6 label, which shipd puts on the sheet unchanged
 * (labels/letter-placement.ts). Null where it can do neither.
 */
export function carrierLabelSize(carrier: CarrierId, format: LabelFormat, size: LabelSize): LabelSize | null {
  const sizes = capabilities[carrier].sizes[format];
  if (sizes.includes(size)) return size;
  return size === 'letter' && format !== 'zpl' && sizes.includes('4x6') ? '4x6' : null;
}

/** Where a client's label ask breaks a rule of its own, whatever the carrier: a sheet is not ZPL, a resolution is ZPL's. */
export function labelAskErrors(ask: { format?: LabelFormat; size?: LabelSize; resolution?: LabelResolution }): { pointer: string; detail: string }[] {
  const format = ask.format ?? 'pdf';
  const errors: { pointer: string; detail: string }[] = [];
  if (format === 'zpl' && ask.size === 'letter') errors.push({ pointer: '/label_size', detail: 'letter is a sheet for desktop printers, as PDF or PNG; ZPL labels are 4x6 or 4x8' });
  if (format !== 'zpl' && ask.resolution !== undefined) errors.push({ pointer: '/label_resolution', detail: `is for ZPL labels only; a ${format.toUpperCase()} label has no printer resolution to choose` });
  return errors;
}

/**
 * Why the carrier cannot make the label asked, with the field of the ask at fault, or null when it can. Live labels
 * are the carrier's own file, never redrawn, so a size it does not print (nor carrierLabelSize can place) is refused
 * rather than faked; the simulators refuse the same, so test mode promises nothing live mode cannot keep.
 */
export function labelRefusal(carrier: { id: CarrierId; name: string }, ask: LabelAsk, abroad: boolean): { pointer: string; detail: string } | null {
  const c = capabilities[carrier.id];
  const sizes = c.sizes[ask.format];
  if (carrierLabelSize(carrier.id, ask.format, ask.size) === null) {
    const sheet = ask.format === 'zpl' ? '' : ', or its 4×6 label on a letter sheet';
    return { pointer: '/label_size', detail: `${carrier.name} prints ${ask.format.toUpperCase()} labels ${sizes.map((s) => sizeNames[s]).join(' or ')} only (${c.sizeField}${sheet}), not ${sizeNames[ask.size]}` };
  }
  if (ask.format === 'zpl' && !c.zplResolutions.includes(ask.resolution)) {
    return { pointer: '/label_resolution', detail: `${carrier.name} prints ZPL labels at ${c.zplResolutions.join(' or ')} dpi only, not ${ask.resolution}` };
  }
  const refs = ask.references ?? [];
  const most = abroad ? c.references.abroad : c.references.domestic;
  if (refs.length > most) {
    return { pointer: `/references/${most}`, detail: `${carrier.name} prints at most ${most} references on a label${abroad ? ' abroad' : ''} (${c.referenceField}); give ${most} or fewer` };
  }
  const long = refs.findIndex((r) => r.length > c.referenceLength);
  if (long >= 0) {
    return { pointer: `/references/${long}`, detail: `${carrier.name} takes references of at most ${c.referenceLength} characters (${c.referenceField}); this one has ${refs[long]!.length}` };
  }
  return null;
}

