import { currencyOf } from '../live/currency.ts';
import type { LabelFormat, LabelSize } from '../../labels/label-data.ts';
import { boxReferences, failure, labelReferences, ok, type BoughtBox, type CarrierResult, type DomesticPurchaseRequest, type ParcelSpec, type PurchasedLabel, type PurchaseRequest } from '../carrier.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { cityMax, contactNames, declaredTotalRefusal, fedexAddress, fedexDate, fedexDeclaredValue, fedexDimensions, fedexTotalDeclaredValue, usPhone, type FedexAddress } from './party.ts';
import { isResidential } from '../carrier.ts';
import { labelFormatOf } from '../live/image-kind.ts';
import type { Address } from '../../schemas/address.ts';
import { packageSpecialServices, shipmentSpecialServices } from './special-services.ts';

export const shipPath = '/ship/v1/shipments';

const imageTypes: Readonly<Record<LabelFormat, string>> = { pdf: 'PDF', png: 'PNG', zpl: 'ZPLII' };
/** Sheets for PDF and PNG, rolls for ZPL (carriers.md 4.4); letter is the sheet with the label in its top half. */
const stockTypes: Readonly<Record<'paper' | 'stock', Readonly<Record<LabelSize, string | undefined>>>> = {
  paper: { '4x6': 'PAPER_4X6', '4x8': 'PAPER_4X8', letter: 'PAPER_85X11_TOP_HALF_LABEL' },
  stock: { '4x6': 'STOCK_4X6', '4x8': 'STOCK_4X8', letter: undefined },
};

/**
 * labelSpecification for the label asked, at home and abroad: its image and stock types, and for ZPL the printer's
 * resolution ("203 & 300 … 300 DPI resolution is only allowed for ZPLII image type"). A size FedEx does not print
 * in the format (letter as ZPL) is refused before FedEx is asked (label-options.ts); 4×6 stands in here.
 */
export function labelSpecification(r: Pick<PurchaseRequest, 'labelFormat' | 'labelSize' | 'labelResolution'>) {
  const stock = stockTypes[r.labelFormat === 'zpl' ? 'stock' : 'paper'];
  return {
    imageType: imageTypes[r.labelFormat],
    labelStockType: stock[r.labelSize ?? '4x6'] ?? stock['4x6']!,
    labelFormatType: 'COMMON2D',
    ...(r.labelFormat === 'zpl' ? { resolution: r.labelResolution ?? 203 } : {}),
  };
}

/**
 * The label's references as customerReferences, in the order of their types: FedEx prints each type once, and the
 * client's references are untyped. 30 characters: FedEx's limit for all but an Express customer reference. A box's
 * own reference goes after the shipment's first two, within the three types, as on the labels shipd draws.
 */
const referenceTypes = ['CUSTOMER_REFERENCE', 'P_O_NUMBER', 'INVOICE_NUMBER'] as const;
export function customerReferences(r: Pick<PurchaseRequest, 'reference' | 'references'>, box?: Pick<ParcelSpec, 'reference'>) {
  const own = box?.reference?.slice(0, 30).trim();
  const refs = boxReferences(labelReferences(r, 30), own, referenceTypes.length);
  return refs.length > 0 ? { customerReferences: refs.map((value, i) => ({ customerReferenceType: referenceTypes[i]!, value })) } : {};
}

interface FedexParty {
  contact: { personName: string; companyName?: string; phoneNumber: string };
  address: FedexAddress;
}

function party(a: Address, phone: string, residential: boolean | undefined, role: string): CarrierResult<FedexParty> {
  const names = contactNames(a);
  if (!names) return failure('address_invalid', `FedEx needs a name or a company for the ${role}`);
  // The ship document limits the city to 35 characters; the address-validation one does not.
  if (a.city.trim().length > cityMax) return failure('address_invalid', `FedEx ships to a city name of at most ${cityMax} characters; "${a.city}" is longer`);
  const address = fedexAddress(a, residential);
  if (!address.ok) return address;
  return ok({ contact: { ...names, phoneNumber: phone }, address: address.value });
}

/** Rounded up to 0.1, past the float dust of a sum (0.1 + 0.2 is 0.3, not 0.4). */
const upToTenth = (n: number) => Math.ceil(Math.round(n * 1e6) / 1e5) / 10;

/**
 * A multiple-piece shipment (MPS) for several boxes, bought in one call: every box is a line item, sequenceNumber 1
 * (FedEx's master package) to n, with totalPackageCount "the total number of packages in the shipment", the total
 * weight ("1 explicit decimal position", rounded up so it never falls short of the boxes) and the declared values'
 * total. The ship document takes at most 30 line items and, without ALLOW_ASYNCHRONOUS processing, 40 packages: shipd's
 * 20 boxes fit both, so the labels all come back in the answer.
 */
function shipBody(request: DomesticPurchaseRequest, accountNumber: string, shipper: FedexParty, recipient: FedexParty) {
  return {
    labelResponseOptions: 'LABEL',
    accountNumber: { value: accountNumber },
    requestedShipment: {
      shipper,
      recipients: [recipient],
      shipDatestamp: fedexDate(request.shipDate),
      serviceType: request.service,
      packagingType: 'YOUR_PACKAGING',
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      shippingChargesPayment: { paymentType: 'SENDER' },
      ...shipmentSpecialServices(request.options, request.isReturn, request.parcels.length),
      labelSpecification: labelSpecification(request),
      totalWeight: upToTenth(request.parcels.reduce((sum, p) => sum + p.weightLb, 0)),
      ...fedexTotalDeclaredValue(request.parcels),
      totalPackageCount: request.parcels.length,
      requestedPackageLineItems: request.parcels.map((parcel, i) => {
        const dimensions = fedexDimensions(parcel.dimensionsIn);
        return {
          sequenceNumber: i + 1,
          weight: { units: 'LB', value: parcel.weightLb },
          ...(dimensions ? { dimensions } : {}),
          ...fedexDeclaredValue(parcel, 'declaredValue'),
          ...customerReferences(request, parcel),
          ...packageSpecialServices(request.options, 'ship'),
        };
      }),
    },
  };
}

export type FedexShipBody = ReturnType<typeof shipBody>;

/**
 * The parties are those of the parcel's journey: the shipper is where it leaves (the merchant, or for a return the
 * customer sending it back), the recipient where it goes, and the account in the request pays (paymentType SENDER,
 * as FedEx's US_Domestic_Print_Return_Label_Shipment example does for returns). FedEx requires a 10-digit phone for
 * both parties (carriers.md 4.4): the merchant must have one, and a customer without one is given the merchant's,
 * as the label needs a number to call.
 */
export function buildShipRequest(request: DomesticPurchaseRequest, accountNumber: string): CarrierResult<FedexShipBody> {
  const declared = declaredTotalRefusal(request.parcels);
  if (declared) return declared;
  const merchant = request.isReturn ? request.to : request.from;
  const customer = request.isReturn ? request.from : request.to;
  const merchantPhone = usPhone(merchant.phone);
  if (!merchantPhone) return failure('address_invalid', `FedEx needs a 10-digit phone number for the ${request.isReturn ? 'return-to' : 'ship-from'} address`);
  const customerPhone = usPhone(customer.phone) ?? merchantPhone;
  const shipper = party(request.from, request.isReturn ? customerPhone : merchantPhone, undefined, 'shipper');
  if (!shipper.ok) return shipper;
  const recipient = party(request.to, request.isReturn ? merchantPhone : customerPhone, isResidential(request.to), 'recipient');
  if (!recipient.ok) return recipient;
  return ok(shipBody(request, accountNumber, shipper.value, recipient.value));
}

/** A package or shipment document that is a label with its image inline. */
const isLabel = (d: unknown) => (asString(at(d, 'contentType')) ?? 'LABEL').toUpperCase() === 'LABEL' && asString(at(d, 'encodedLabel')) !== undefined;

/** A label's bytes, in the format they are: the one FedEx names, or the one we asked for, may not be what came. */
function labelFile(label: unknown, trackingNumber: string): CarrierResult<NonNullable<PurchasedLabel['file']>> {
  const bytes = Buffer.from(asString(at(label, 'encodedLabel'))!, 'base64');
  const format = labelFormatOf(bytes);
  if (format) return ok({ format, bytes });
  const named = asString(at(label, 'docType')) ?? 'an unnamed type';
  return failure('carrier_error', `FedEx sent ${trackingNumber}'s label as ${named}, which is neither PDF, PNG nor ZPL`);
}

/** The master tracking number: completedShipmentDetail.masterTrackingId, else the shipment's masterTrackingNumber. */
const masterOf = (shipment: unknown) =>
  asString(at(shipment, 'completedShipmentDetail', 'masterTrackingId', 'trackingNumber')) ?? asString(at(shipment, 'masterTrackingNumber'));

/**
 * output.transactionShipments[0]: the master tracking number, the label FedEx encoded inline (we ask for LABEL,
 * not URL_ONLY), and the net charge, falling back to the quoted price when FedEx states none. Several boxes are read
 * piece by piece (severalBoxes).
 */
export function parseShipResponse(json: unknown, request: PurchaseRequest): CarrierResult<PurchasedLabel> {
  const shipment = asArray(at(json, 'output', 'transactionShipments'))[0];
  if (!shipment) return failure('carrier_error', 'FedEx answered the shipment request without output.transactionShipments');
  const pieces = asArray(at(shipment, 'pieceResponses'));
  const trackingNumber = masterOf(shipment) ?? asString(at(pieces[0], 'trackingNumber'));
  if (!trackingNumber) return failure('carrier_error', 'FedEx sold a shipment but gave no tracking number');
  const documents = [...pieces.flatMap((p) => asArray(at(p, 'packageDocuments'))), ...asArray(at(shipment, 'shipmentDocuments'))];
  const rated = actualRate(shipment);
  const charge = rated ? { cents: asCents(at(rated, 'totalNetCharge'))!, currency: currencyOf(at(rated, 'currency')) } : pieceCharges(pieces);
  const invoice = printedInvoice(documents);
  const paid = {
    postageCents: charge?.cents ?? request.quotedCents,
    currency: charge?.currency ?? currencyOf(undefined),
    ...(invoice && { documents: [{ type: 'commercial_invoice' as const, bytes: invoice }] }),
  };
  if (request.parcels.length > 1) {
    const boxes = severalBoxes(pieces, request.parcels.length, trackingNumber);
    if (!boxes.ok) return boxes;
    const first = boxes.value[0]!;
    return ok({ trackingNumber: first.trackingNumber, carrierShipmentId: trackingNumber, masterTrackingNumber: trackingNumber, packages: boxes.value, file: first.file, ...paid });
  }
  const label = documents.find(isLabel);
  if (!label) return failure('carrier_error', `FedEx sold shipment ${trackingNumber} but sent no label image; void it and buy again`);
  const file = labelFile(label, `shipment ${trackingNumber}`);
  if (!file.ok) return file;
  return ok({ trackingNumber, carrierShipmentId: trackingNumber, file: file.value, ...paid });
}

/**
 * The boxes of a multiple-piece shipment, in the order they were asked: pieceResponses by packageSequenceNumber (the
 * line items' sequenceNumber) where FedEx numbers every piece, else as listed. Each piece brings its own tracking
 * number and label; a piece short is the whole shipment failed, to be voided by its master and bought again, since a
 * box without its label cannot be sent.
 */
function severalBoxes(pieces: unknown[], asked: number, master: string): CarrierResult<Required<Pick<BoughtBox, 'trackingNumber' | 'file'>>[]> {
  const sequence = (p: unknown) => asNumber(at(p, 'packageSequenceNumber'));
  const ordered = pieces.every((p) => sequence(p) !== undefined) ? [...pieces].sort((a, b) => sequence(a)! - sequence(b)!) : pieces;
  const again = `void shipment ${master} and buy again`;
  if (ordered.length !== asked) return failure('carrier_error', `FedEx sold shipment ${master} with ${ordered.length} piece(s) for ${asked} boxes; ${again}`);
  const boxes: Required<Pick<BoughtBox, 'trackingNumber' | 'file'>>[] = [];
  for (const [i, piece] of ordered.entries()) {
    const trackingNumber = asString(at(piece, 'trackingNumber'));
    if (!trackingNumber) return failure('carrier_error', `FedEx gave box ${i + 1} of shipment ${master} no tracking number; ${again}`);
    const label = asArray(at(piece, 'packageDocuments')).find(isLabel);
    if (!label) return failure('carrier_error', `FedEx sent no label image for box ${i + 1} (${trackingNumber}) of shipment ${master}; ${again}`);
    const file = labelFile(label, `box ${i + 1} (${trackingNumber})`);
    if (!file.ok) return file;
    boxes.push({ trackingNumber, file: file.value });
  }
  return ok(boxes);
}

/**
 * The commercial invoice FedEx drew from shippingDocumentSpecification (shipmentDocuments of contentType
 * COMMERCIAL_INVOICE), when it came inline as a PDF: the copy to print, or with ETD the copy of what was uploaded.
 */
function printedInvoice(documents: unknown[]): Buffer | undefined {
  const invoice = documents.find((d) => asString(at(d, 'contentType'))?.toUpperCase() === 'COMMERCIAL_INVOICE' && asString(at(d, 'encodedLabel')));
  const bytes = invoice ? Buffer.from(asString(at(invoice, 'encodedLabel'))!, 'base64') : undefined;
  return bytes?.subarray(0, 4).toString() === '%PDF' ? bytes : undefined;
}

/**
 * completedShipmentDetail.shipmentRating: "actualRateType ... identifies which entry in the following array is
 * considered as presenting the 'actual' rates for the shipment" (Shipment-Resource.json ShipmentRating). Without
 * it, the payor's account rate (PAYOR_ACCOUNT_* / RATED_ACCOUNT_*), never a list or retail one.
 */
function actualRate(shipment: unknown): unknown {
  const rating = at(shipment, 'completedShipmentDetail', 'shipmentRating');
  const details = asArray(at(rating, 'shipmentRateDetails')).filter((r) => asCents(at(r, 'totalNetCharge')) !== undefined);
  const type = (r: unknown) => asString(at(r, 'rateType'))?.toUpperCase() ?? '';
  const actual = asString(at(rating, 'actualRateType'))?.toUpperCase();
  return (actual ? details.find((r) => type(r) === actual) : undefined) ?? details.find((r) => /_ACCOUNT_/.test(type(r)));
}

/** The sum of the pieces' net charges when every piece has one; FedEx states no currency beside them. */
function pieceCharges(pieces: unknown[]): { cents: number; currency: string } | undefined {
  const charges = pieces.map((p) => asCents(at(p, 'netChargeAmount')));
  if (charges.length === 0 || charges.some((c) => c === undefined)) return undefined;
  return { cents: charges.reduce<number>((sum, c) => sum + c!, 0), currency: currencyOf(undefined) };
}
