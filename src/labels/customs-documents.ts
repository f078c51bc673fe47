import { writeCn22 } from './cn22.ts';
import { writeCn23 } from './cn23.ts';
import { writeCommercialInvoice } from './commercial-invoice.ts';
import type { CustomsDocumentData, CustomsDocumentType } from './customs-data.ts';

const writers: Record<CustomsDocumentType, (d: CustomsDocumentData) => Promise<Buffer>> = {
  commercial_invoice: writeCommercialInvoice,
  cn22: writeCn22,
  cn23: writeCn23,
};

/** A shipment's customs document of the given type, as a PDF. */
export function renderCustomsDocument(type: CustomsDocumentType, data: CustomsDocumentData): Promise<Buffer> {
  return writers[type](data);
}
