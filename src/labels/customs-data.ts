// What the customs documents print, in the renderer's own terms. The declaration keeps the API's field names
// (DESIGN.md §14) so a stored declaration can be handed over as it is, but nothing here imports the schemas: the
// documents are drawn from whatever the caller has checked.

/** The customs documents a shipment may carry, by the names `documents[].type` gives them. */
export type CustomsDocumentType = 'commercial_invoice' | 'cn22' | 'cn23';

/** A postal address anywhere: `state` and `zip` only where the country has them. */
export interface DocumentAddress {
  name?: string;
  company?: string;
  street1: string;
  street2?: string;
  city: string;
  state?: string;
  zip?: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  phone?: string;
  email?: string;
}

/** A decimal string and its ISO 4217 currency, as the API's Money. */
export interface DocumentMoney {
  amount: string;
  currency: string;
}

export interface DocumentWeight {
  value: number;
  unit: 'lb' | 'oz' | 'kg' | 'g';
}

/** One line of the declaration: `unit_value` and `weight` are of one unit, as an order's line items are. */
export interface CustomsLine {
  description: string;
  quantity: number;
  unit_value: DocumentMoney;
  weight: DocumentWeight;
  hs_tariff_number: string;
  /** ISO 3166-1 alpha-2. */
  origin_country: string;
  sku?: string;
}

export type ContentsType = 'merchandise' | 'gift' | 'documents' | 'returned_goods' | 'sample' | 'other';

/** The customs declaration, field for field as DESIGN.md §14 names it. */
export interface CustomsDeclaration {
  contents_type: ContentsType;
  contents_explanation?: string;
  non_delivery: 'return' | 'abandon';
  incoterm?: 'DAP' | 'DDP';
  eel_pfc?: string;
  aes_itn?: string;
  invoice_number?: string;
  signer: string;
  certify: true;
  items: CustomsLine[];
}

/** Everything a customs document prints about one shipment. */
export interface CustomsDocumentData {
  carrier: 'ups' | 'usps' | 'fedex';
  serviceCode: string;
  serviceName: string;
  /** The first package's number: the waybill of an invoice, the item number of a CN 22 or CN 23. */
  trackingNumber: string;
  from: DocumentAddress;
  to: DocumentAddress;
  customs: CustomsDeclaration;
  /** YYYY-MM-DD, the date of posting and of the invoice. */
  shipDate: string;
  /** What the shipment weighs, packaging included: the forms' total gross weight. */
  grossWeight: DocumentWeight;
  /** How many packages the shipment has: an invoice states it. */
  packages: number;
  /** The postage paid: CN 23 box 9, "postal charges/fees". */
  postage?: DocumentMoney;
  /** The order number. */
  reference?: string;
  /** Test mode: every page is marked SAMPLE, as labels are. */
  sample: boolean;
}
