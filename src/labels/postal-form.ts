import type { CustomsDocumentData } from './customs-data.ts';
import { kgText, lbOzText, lineKilograms, lineValue, moneyText, nonDeliveryChoices, postalCategories } from './customs-figures.ts';
import { pageRows, type DocumentPen } from './document-pdf.ts';

// What the CN 22 and the CN 23 share: their item lines, how many one form holds, the category and non-delivery
// boxes, and the sender's certificate.

/**
 * Item lines one USPS customs form holds. USPS's forms take five lines a form and continue on further forms
 * ("additional forms") for more (ShippingEasy, "How many line items can I include on a USPS customs form?";
 * Pitney Bowes shipping API customs FAQ: continuation pages for more items than the form's description of
 * contents can list; both read 2026).
 */
export const linesPerForm = 5;

/** The item lines of each form: the first form, then each additional form. */
export const postalForms = (d: CustomsDocumentData) => pageRows(d.customs.items.length, linesPerForm);

/**
 * The sender's certificate of each form, in the UPU's words (CN 22 as India Post prints it; CN 23 as OECD 2018,
 * Annex A, reproduces it). The CN 22's sender certifies "whose name and address are given on the item".
 */
export const certificates = {
  cn22: 'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
  cn23: 'I certify that the particulars given in this customs declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.',
} as const;

/**
 * Additional forms must not repeat the item's number or barcode (PS Form 2976-A instructions, block 1: write
 * "Additional forms enclosed" on the first form, obliterate the tracking number and barcode on the others).
 */
export const additionalFormsNote = (forms: number) => `Additional forms enclosed: ${forms - 1}`;

interface Column {
  x: number;
  width: number;
}

/** Where one form's item columns sit, and at what size they print. */
export interface ItemColumns {
  description: Column;
  quantity: Column;
  weight: Column;
  value: Column;
  hs: Column;
  origin: Column;
  size: number;
  rowHeight: number;
  /** Whether the weight cell has room for kilograms under pounds and ounces. */
  kilograms: boolean;
}

export function itemRows(pen: DocumentPen, d: CustomsDocumentData, [start, end]: [number, number], top: number, c: ItemColumns): void {
  const style = { size: c.size };
  const lineGap = c.size * 1.15;
  for (let i = start; i < end; i++) {
    const line = d.customs.items[i]!;
    const y = top + (i - start) * c.rowHeight + 2;
    pen.paragraph(line.description, c.description.x, y, c.description.width, 2, style);
    pen.text(String(line.quantity), c.quantity.x + c.quantity.width, y, { ...style, align: 'right', width: c.quantity.width });
    const kg = lineKilograms(line);
    pen.text(lbOzText(kg), c.weight.x + c.weight.width, y, { ...style, align: 'right', width: c.weight.width });
    if (c.kilograms) pen.text(kgText(kg), c.weight.x + c.weight.width, y + lineGap, { ...style, align: 'right', width: c.weight.width });
    pen.text(moneyText(lineValue(line)), c.value.x + c.value.width, y, { ...style, align: 'right', width: c.value.width });
    pen.text(line.hs_tariff_number, c.hs.x, y, { ...style, width: c.hs.width });
    pen.text(line.origin_country.toUpperCase(), c.origin.x, y, { ...style, width: c.origin.width });
    pen.box(c.description.x - 2, top + (i - start + 1) * c.rowHeight, c.origin.x + c.origin.width - c.description.x + 4, 0, 0.25);
  }
}

/** The category of item boxes, `perRow` to a row; the explanation of "other" follows them. Returns the height used. */
export function categoryBoxes(pen: DocumentPen, d: CustomsDocumentData, x: number, y: number, pitch: number, perRow: number, size: number, width: number): number {
  postalCategories.forEach((category, i) => {
    pen.checkbox(x + (i % perRow) * pitch, y + Math.floor(i / perRow) * (size + 4), d.customs.contents_type === category.type, category.label, size);
  });
  let height = Math.ceil(postalCategories.length / perRow) * (size + 4);
  if (d.customs.contents_explanation) {
    pen.text(`Explanation: ${d.customs.contents_explanation}`, x, y + height, { size, width });
    height += size + 4;
  }
  return height;
}

/** What the sender wants done with an item that cannot be delivered. */
export function nonDeliveryBoxes(pen: DocumentPen, d: CustomsDocumentData, x: number, y: number, size: number): void {
  pen.text('If undeliverable:', x, y + 0.5, { size, bold: true });
  nonDeliveryChoices.forEach((choice, i) => pen.checkbox(x + size * 8 + i * size * 11, y, d.customs.non_delivery === choice.value, choice.label, size));
}
