import { countryOf, customsCurrency, declaredAmount, documentsOnly, exportFiling, kgPerPound, lineAmount, phoneDigits, purposes, type AbroadPurchase, type AbroadShipment } from '../abroad.ts';
import { failure, ok, type CarrierResult, type ParcelSpec } from '../carrier.ts';
import { packageSpecialServices, shipmentSpecialServices } from './special-services.ts';
import { kilograms } from '../../labels/customs-figures.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { Customs } from '../../schemas/customs.ts';
import { customerReferences, labelSpecification } from './ship.ts';
import { cityMax, contactNames, declaredTotalRefusal, fedexDate, fedexDeclaredValue, fedexDimensions, fedexStreetLines, fedexTotalDeclaredValue, placeAbroad, rateAddress, usPhone } from './party.ts';
import { isResidential } from '../carrier.ts';

// FedEx Ship API abroad: Shipment-Resource.json (ShipStream/fedex-rest-php-sdk resources/models/.raw/ship/v1, commit
// bc94dcd2c7254f105842125a3eb671c3f614d072, 2025-10-17), CustomsClearanceDetail, Commodity, CommercialInvoice,
// ExportDetail, ShippingDocumentSpecification and ETDDetail; test/contracts/fedex/ship.ts holds our schema of them.

/** FedEx's services abroad from the US that shipd sells (catalog.ts). */
export const fedexServicesAbroad: ReadonlySet<string> = new Set(['FEDEX_INTERNATIONAL_PRIORITY', 'INTERNATIONAL_ECONOMY', 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 'FEDEX_GROUND']);

/** CommercialInvoice.shipmentPurpose for each of our purposes. */
const shipmentPurposes = { sale: 'SOLD', gift: 'GIFT', sample: 'SAMPLE', return: 'REPAIR_AND_RETURN', documents: 'NOT_SOLD', other: 'NOT_SOLD' } as const;

/** Kilograms up to the next hundredth: commodity weights are in KG only, and the package's must be in the same unit. */
const kg = (value: number): number => Math.max(0.01, Math.ceil(Number((value * 100).toFixed(6))) / 100);

/**
 * A phone FedEx takes: "Minimum length is 10 and supports maximum of 15", and in the US and Canada exactly 10
 * digits (a leading 1 dropped).
 */
function recipientPhone(a: AnyAddress): string | undefined {
  if (['US', 'CA'].includes(countryOf(a))) return usPhone(a.phone);
  const digits = phoneDigits(a.phone);
  return digits.length >= 10 && digits.length <= 15 ? digits : undefined;
}

/**
 * ExportDetail.exportComplianceStatement: the ITN as "AES XYYYYMMDDNNNNNN", or the FTR exemption as FedEx's
 * predefined value ("NO_EEI_30_37_A" for 30.37(a)).
 */
function complianceStatement(c: Customs, to: AnyAddress): string {
  const filing = exportFiling(c, to);
  if ('itn' in filing) return `AES ${filing.itn}`;
  const section = /30\.(\d+)(?:\s*\(([a-z])\))?/i.exec(filing.exemption);
  return section ? `NO_EEI_30_${section[1]}${section[2] ? `_${section[2].toUpperCase()}` : ''}` : 'NO_EEI_30_37_A';
}

/** One commodity per declared line: what it is, where it was made, how many, what each is worth, what they weigh. */
function commodities(c: Customs) {
  const currency = customsCurrency(c);
  return c.items.map((item) => ({
    description: item.description.slice(0, 450),
    countryOfManufacture: item.origin_country.toUpperCase(),
    harmonizedCode: item.hs_tariff_number,
    quantity: item.quantity,
    quantityUnits: 'PCS',
    numberOfPieces: Math.min(9999, item.quantity),
    unitPrice: { amount: Number(item.unit_value.amount), currency },
    customsValue: { amount: lineAmount(item), currency },
    weight: { units: 'KG', value: kg(kilograms(item.weight) * item.quantity) },
    ...(item.sku ? { partNumber: item.sku } : {}),
  }));
}

/**
 * customsClearanceDetail: who pays duties and taxes (the shipper for DDP, the recipient for DAP), the commercial
 * invoice's purpose, terms and the signer's certification, the commodities, their total and the export filing.
 */
function customsClearance(r: AbroadPurchase) {
  const c = r.customs;
  const purpose = purposes[c.contents_type];
  return {
    dutiesPayment: { paymentType: c.incoterm === 'DDP' ? 'SENDER' : 'RECIPIENT' },
    isDocumentOnly: documentsOnly(c),
    commercialInvoice: {
      shipmentPurpose: shipmentPurposes[purpose],
      termsOfSale: c.incoterm ?? 'DAP',
      declarationStatement: `I, ${c.signer.trim()}, certify that the information on this invoice is true and correct and that the contents of this shipment are as stated above.`.slice(0, 554),
      ...(purpose === 'other' && c.contents_explanation ? { specialInstructions: c.contents_explanation } : {}),
      ...(c.invoice_number ? { comments: [`Invoice ${c.invoice_number}`] } : {}),
    },
    commodities: commodities(c),
    totalCustomsValue: { amount: declaredAmount(c), currency: customsCurrency(c) },
    exportDetail: { exportComplianceStatement: complianceStatement(c, r.to) },
  };
}

/**
 * One box as a line item abroad: its weight in kilograms, as the commodities' must be, its size, declared value and
 * the package options asked; `sequence` numbers the boxes of a multiple-piece shipment.
 */
function packageLine(parcel: ParcelSpec, sequence: number | undefined, api: 'rate' | 'ship', options: AbroadShipment['options'], references: Record<string, unknown>) {
  const dimensions = fedexDimensions(parcel.dimensionsIn);
  return {
    ...(sequence !== undefined ? { sequenceNumber: sequence } : {}),
    weight: { units: 'KG', value: kg(parcel.weightLb * kgPerPound) },
    ...(dimensions ? { dimensions } : {}),
    ...fedexDeclaredValue(parcel, 'declaredValue'),
    ...references,
    ...packageSpecialServices(options, api),
  };
}

/** How the commercial invoice travels: printed by FedEx as a PDF to go with the parcel, or sent electronically (ETD). */
export interface InvoiceChoice {
  electronicTradeDocuments: boolean;
}

/**
 * The ship request abroad. The shipper (the merchant, in the US) and the recipient with the phone FedEx requires;
 * package weights in kilograms, as the commodities' must be; the commercial invoice asked for as a document
 * (shippingDocumentSpecification) unless the parcel holds documents of no commercial value, and with ETD uploaded to
 * customs electronically (shipmentSpecialServices ELECTRONIC_TRADE_DOCUMENTS with etdDetail).
 */
export function buildShipRequestAbroad(r: AbroadPurchase, accountNumber: string, invoice: InvoiceChoice): CarrierResult<Record<string, unknown>> {
  if (!fedexServicesAbroad.has(r.service)) return failure('service_unavailable', `FedEx service ${r.service} does not ship from the US to another country`);
  if (r.service === 'FEDEX_GROUND' && countryOf(r.to) !== 'CA') return failure('service_unavailable', `FedEx International Ground goes from the US to Canada only, not to ${countryOf(r.to)}`);
  const merchantPhone = usPhone(r.from.phone);
  if (!merchantPhone) return failure('address_invalid', 'FedEx needs a 10-digit phone number for the ship-from address');
  const phone = recipientPhone(r.to);
  if (!phone) return failure('address_invalid', `FedEx needs the recipient's phone number for a shipment abroad: ${['US', 'CA'].includes(countryOf(r.to)) ? '10 digits' : '10 to 15 digits with the country code'}`);
  const shipperNames = contactNames(r.from);
  const recipientNames = contactNames(r.to);
  if (!shipperNames || !recipientNames) return failure('address_invalid', 'FedEx needs a name or a company for the shipper and the recipient');
  const fromLines = fedexStreetLines(r.from);
  const toLines = fedexStreetLines(r.to);
  if (!fromLines || !toLines) return failure('address_invalid', 'FedEx takes at most 3 street lines of 35 characters');
  if (r.to.city.trim().length > cityMax) return failure('address_invalid', `FedEx ships to a city name of at most ${cityMax} characters; "${r.to.city}" is longer`);
  const declared = declaredTotalRefusal(r.parcels);
  if (declared) return declared;
  const state = r.to.state?.trim().toUpperCase();
  const withInvoice = !documentsOnly(r.customs);
  const etd = withInvoice && invoice.electronicTradeDocuments;
  const options = shipmentSpecialServices(r.options, false, r.parcels.length).shipmentSpecialServices;
  const special = etd || options
    ? {
        shipmentSpecialServices: {
          ...options,
          specialServiceTypes: [...(etd ? ['ELECTRONIC_TRADE_DOCUMENTS'] : []), ...(options?.specialServiceTypes ?? [])],
          ...(etd ? { etdDetail: { requestedDocumentTypes: ['COMMERCIAL_INVOICE'] } } : {}),
        },
      }
    : {};
  return ok({
    labelResponseOptions: 'LABEL',
    accountNumber: { value: accountNumber },
    requestedShipment: {
      shipper: {
        contact: { ...shipperNames, phoneNumber: merchantPhone },
        address: { streetLines: fromLines, city: r.from.city.trim(), stateOrProvinceCode: r.from.state.toUpperCase(), postalCode: r.from.zip, countryCode: 'US' },
      },
      recipients: [
        {
          contact: { ...recipientNames, phoneNumber: phone, ...(r.to.email ? { emailAddress: r.to.email.slice(0, 80) } : {}) },
          address: {
            streetLines: toLines,
            city: r.to.city.trim(),
            ...(state ? { stateOrProvinceCode: state } : {}),
            ...(r.to.zip ? { postalCode: r.to.zip.trim().toUpperCase().slice(0, 10) } : {}),
            countryCode: countryOf(r.to),
            residential: isResidential(r.to),
          },
        },
      ],
      shipDatestamp: fedexDate(r.shipDate),
      serviceType: r.service,
      packagingType: 'YOUR_PACKAGING',
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      shippingChargesPayment: { paymentType: 'SENDER' },
      ...special,
      customsClearanceDetail: customsClearance(r),
      ...(withInvoice
        ? { shippingDocumentSpecification: { shippingDocumentTypes: ['COMMERCIAL_INVOICE'], commercialInvoiceDetail: { documentFormat: { docType: 'PDF', stockType: 'PAPER_LETTER' } } } }
        : {}),
      labelSpecification: labelSpecification(r),
      // totalWeight is in pounds, "1 explicit decimal position", rounded up so it never falls short of the boxes.
      totalWeight: Math.ceil(Number((r.parcels.reduce((sum, p) => sum + p.weightLb, 0) * 10).toFixed(6))) / 10,
      ...fedexTotalDeclaredValue(r.parcels),
      // Several boxes are one multiple-piece shipment, as at home (ship.ts): the declaration is the shipment's.
      ...(r.parcels.length > 1 ? { totalPackageCount: r.parcels.length } : {}),
      requestedPackageLineItems: r.parcels.map((parcel, i) => packageLine(parcel, r.parcels.length > 1 ? i + 1 : undefined, 'ship', r.options, customerReferences(r, parcel))),
    },
  });
}

/**
 * The rate request abroad (RateQuotes-Resource.json): every service at once, with the customs commodities FedEx
 * requires "for international … rating", who pays duties, and package weights in kilograms as the commodities'.
 * The recipient's postal code goes where its country has them: RateAddress takes none "for non postal-aware
 * countries" (Hong Kong, the United Arab Emirates…), whose addresses the checks before let go without one.
 */
export function buildRateRequestAbroad(r: AbroadShipment, accountNumber: string): CarrierResult<Record<string, unknown>> {
  const purpose = purposes[r.customs.contents_type];
  return ok({
    accountNumber: { value: accountNumber },
    rateRequestControlParameters: { returnTransitTimes: true },
    requestedShipment: {
      shipper: { address: rateAddress(r.from, isResidential(r.from)) },
      recipient: {
        address: { ...placeAbroad(r.to), residential: isResidential(r.to) },
      },
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      packagingType: 'YOUR_PACKAGING',
      // Rated abroad, an account may be priced in another currency: PREFERRED asks for the same rates in US dollars too.
      rateRequestType: ['ACCOUNT', 'LIST', 'PREFERRED'],
      preferredCurrency: 'USD',
      shipDateStamp: fedexDate(r.shipDate),
      customsClearanceDetail: {
        dutiesPayment: { paymentType: r.customs.incoterm === 'DDP' ? 'SENDER' : 'RECIPIENT' },
        commercialInvoice: { shipmentPurpose: shipmentPurposes[purpose], termsOfSale: r.customs.incoterm ?? 'DAP' },
        commodities: commodities(r.customs),
      },
      ...shipmentSpecialServices(r.options, false, r.parcels.length),
      ...(r.parcels.length > 1 ? { totalPackageCount: r.parcels.length } : {}),
      requestedPackageLineItems: r.parcels.map((parcel) => packageLine(parcel, undefined, 'rate', r.options, {})),
    },
  });
}
