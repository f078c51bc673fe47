import { countryOf, exportFiling, lineAmount, phoneDigits, unitPounds, type AbroadPurchase, type AbroadShipment } from '../abroad.ts';
import { failure, ok, type CarrierResult, type PurchasedLabel, type Quote } from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { countryName } from '../../labels/customs-figures.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { ContentsType, Customs } from '../../schemas/customs.ts';
import { asArray, asCents, asNumber, asString, at } from '../live/lenient.ts';
import { splitAt, splitZip, toUspsAddress, uspsDimensions, uspsStreetsAbroad, ymd } from './fields.ts';
import { parcelOf, parseLabel, uspsImageType, uspsReferences } from './ship.ts';
import { includedSurcharges } from '../surcharges.ts';
import { uspsFees } from './surcharges.ts';
import { extraServiceSurcharges, pricesEvery } from './extra-services.ts';
import { uspsInsurance, uspsInsuranceCodes } from './insurance.ts';

// USPS International Labels v3 (international-labels.yaml 3.2.2, as copied in Thecodergabe/shipstack
// specs/usps/international-labels_8.yaml at commit d44e3ecc3e51e764baba9ec8f13c710467962575, 2026-04-08):
// InternationalLabelRequest with its customsForm, which USPS prints on the label as the CN 22 or CN 23.

export const internationalLabelPath = '/international-labels/v3/international-label';

export const uspsMailClassesAbroad: ReadonlySet<string> = new Set(['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', 'PRIORITY_MAIL_INTERNATIONAL', 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL']);

/** customsContentType for each of our contents types. */
const contentTypes: Readonly<Record<ContentsType, string>> = {
  merchandise: 'MERCHANDISE', gift: 'GIFT', documents: 'DOCUMENT', returned_goods: 'RETURNED_GOODS', sample: 'COMMERCIAL_SAMPLE', other: 'OTHER',
};

/** The spec's limits: 30 lines on a customs form, 30 characters of description, 25 of comments, 15 of invoice number, 70 lb. */
const limits = { lines: 30, description: 30, comments: 25, invoice: 15, pounds: 70 } as const;

/** The least value a line may state (ShippingContents.itemTotalValue `minimum: 0.01`); documents of no value declare it. */
const leastValue = 0.01;

const clip = (text: string, max: number): string => splitAt(text, max)[0];

/**
 * InternationalLabelAddress: the person's first and last names, or the company as `firm` when there is no last name
 * ("The First and Last Name or Firm Name are always required"), the country both by name and by ISO code, the
 * province and postal code as the country writes them, and the phone with its country code when it has the form.
 */
function addressAbroad(a: AnyAddress): Record<string, unknown> {
  const [first = '', ...rest] = (a.name ?? '').trim().split(/\s+/).filter(Boolean);
  const firm = a.company?.trim() || (rest.length === 0 ? first : '');
  const { streetAddress: street, secondaryAddress: secondary } = uspsStreetsAbroad(a);
  const phone = phoneDigits(a.phone).replace(/^0+/, '');
  return {
    ...(rest.length > 0 ? { firstName: clip(first, 50), lastName: clip(rest.join(' '), 50) } : {}),
    ...(firm ? { firm: clip(firm, 50) } : {}),
    streetAddress: street,
    ...(secondary ? { secondaryAddress: clip(secondary, 50) } : {}),
    city: clip(a.city, 28),
    ...(a.state ? { province: clip(a.state, 40) } : {}),
    ...(a.zip ? { postalCode: a.zip.trim().toUpperCase().slice(0, 11) } : {}),
    country: countryName(countryOf(a)),
    countryISOAlpha2Code: countryOf(a),
    ...(/^[1-9][0-9]{7,14}$/.test(phone) ? { phone } : {}),
  };
}

/**
 * One line per declared item: its total value in US dollars and total weight in pounds (itemTotalValue and
 * itemTotalWeight; the per-item fields are deprecated), HS number and country of origin.
 */
function contents(c: Customs) {
  return c.items.map((item) => ({
    itemDescription: clip(item.description, limits.description),
    itemQuantity: item.quantity,
    itemTotalValue: Math.max(leastValue, lineAmount(item)),
    weightUOM: 'lb',
    itemTotalWeight: Math.max(0.01, Math.ceil(unitPounds(item) * item.quantity * 100) / 100),
    HSTariffNumber: item.hs_tariff_number,
    countryofOrigin: item.origin_country.toUpperCase(),
  }));
}

/**
 * AESITN: "USPS requires the ITN or the Exemption" — the ITN of the EEI filed, written as the regulations cite it
 * (AES X…), or the exemption's section ("NOEEI 30.37(a)").
 */
function aesItn(r: AbroadPurchase): string {
  const filing = exportFiling(r.customs, r.to);
  return ('itn' in filing ? `AES ${filing.itn}` : filing.exemption).slice(0, 35);
}

/**
 * `POST /international-labels/v3/international-label`. The image types of this API are PDF, TIFF and ZPL: a PNG
 * label is asked for as PDF, and the file's format is read from its bytes as for every label. What USPS would
 * refuse is refused here first: more lines than a customs form holds, a parcel over 70 lb (a value in another
 * currency than the dollar is refused before, with the carrier's other limits abroad: carrier-limits.ts). An insured
 * parcel asks its one insurance code (930 or 931, insurance.ts) with the value insured as packageOptions.packageValue.
 */
export function buildInternationalLabelRequest(r: AbroadPurchase): CarrierResult<Record<string, unknown>> {
  const c = r.customs;
  if (!uspsMailClassesAbroad.has(r.service)) return failure('service_unavailable', `USPS service ${r.service} does not go to another country; choose Priority Mail International, Priority Mail Express International or First-Class Package International Service`);
  if (c.items.length > limits.lines) return failure('not_serviced', `A USPS customs form holds at most ${limits.lines} lines; this declaration has ${c.items.length}`);
  if (r.parcels[0]!.weightLb > limits.pounds) return failure('parcel_too_large', `USPS international parcels weigh at most ${limits.pounds} lb`);
  const insured = uspsInsurance(r.parcels[0]!);
  return ok({
    imageInfo: { imageType: r.labelFormat === 'zpl' ? uspsImageType(r) : 'PDF', labelType: '4X6LABEL' },
    toAddress: addressAbroad(r.to),
    fromAddress: toUspsAddress(r.from),
    packageDescription: {
      mailClass: r.service,
      ...parcelOf(r),
      destinationEntryFacilityType: 'NONE',
      mailingDate: ymd(r.shipDate),
      packageOptions: { ...(insured && { packageValue: insured.packageValue }), nonDeliveryOption: c.non_delivery === 'abandon' ? 'ABANDON' : 'RETURN' },
      ...uspsReferences(r),
      ...(insured && { extraServices: [insured.code] }),
    },
    customsForm: {
      customsContentType: contentTypes[c.contents_type],
      ...(c.contents_type === 'other' ? { contentComments: clip(c.contents_explanation ?? 'Other', limits.comments) } : {}),
      AESITN: aesItn(r),
      ...(c.invoice_number ? { invoiceNumber: c.invoice_number.slice(0, limits.invoice) } : {}),
      contents: contents(c),
    },
  });
}

const insuranceIds = new Set(Object.values(uspsInsuranceCodes).map(String));

/** Whether the label's extraServices ({serviceID, serviceName, price}, InternationalLabelMetadata) price its insurance. */
function pricesInsurance(meta: unknown): boolean {
  return asArray(at(meta, 'extraServices')).some((e) => insuranceIds.has(String(at(e, 'serviceID') ?? '')) && asCents(at(e, 'price')) !== undefined);
}

/**
 * The `application/vnd.usps.labels+json` answer (InternationalLabelVendorResponse): the metadata beside labelImage,
 * with the tracking number as `internationalTrackingNumber`; otherwise read as a domestic label is, the amount charged
 * being the postage with the fees and extra services the label itemizes. Its `postage` "does not include insurance or
 * other extra service fees": an insured label (`insured`, with what its rate said) that does not price its insurance
 * is charged at least what the rate said, which included it, rather than the postage without it.
 */
export function parseInternationalLabel(json: unknown, insured?: { quotedCents: number }): CarrierResult<PurchasedLabel> {
  const meta = at(json, 'labelMetadata') ?? json;
  const trackingNumber = asString(at(meta, 'internationalTrackingNumber')) ?? asString(at(meta, 'trackingNumber'));
  if (!trackingNumber) return failure('carrier_error', 'USPS sold an international label without an internationalTrackingNumber');
  const label = parseLabel({ ...(meta as object), trackingNumber, labelImage: at(json, 'labelImage') });
  if (!label.ok || !insured || pricesInsurance(meta)) return label;
  return ok({ ...label.value, postageCents: Math.max(label.value.postageCents, insured.quotedCents) });
}

export const internationalRatesPath = '/international-prices/v3/base-rates-list/search';
/**
 * The search that prices extra services with the postage (TotalRatesQuery, international-prices.yaml 3.3.5): the
 * price list's query with the `extraServices` asked and `itemValue`, answered per option with the extraServices
 * priced and `totalPrice`, "including the `totalBasePrice` and all extra service prices".
 */
export const internationalTotalRatesPath = '/international-prices/v3/total-rates/search';

/** Where the parcel is priced: with its insurance when it is insured, as the price list alone has no extra services. */
export const internationalRatesPathOf = (r: AbroadShipment): string => (uspsInsurance(r.parcels[0]!) ? internationalTotalRatesPath : internationalRatesPath);

/**
 * The international price list for the parcel (InternationalRateListQuery, international-prices.yaml 3.3.5), every
 * mail class at once, in one price type: shipd asks RETAIL for the list price and COMMERCIAL for what the account
 * pays, as at home. The parcel goes with the size the label will send, and, insured, with its insurance code and the
 * value insured in US dollars (the TotalRatesQuery fields; internationalRatesPathOf).
 */
export function buildInternationalRatesRequest(r: AbroadShipment, priceType: 'RETAIL' | 'COMMERCIAL'): Record<string, unknown> {
  const insured = uspsInsurance(r.parcels[0]!);
  return {
    originZIPCode: splitZip(r.from.zip).ZIPCode,
    destinationCountryCode: countryOf(r.to),
    ...(r.to.zip ? { foreignPostalCode: r.to.zip.trim().toUpperCase() } : {}),
    weight: r.parcels[0]!.weightLb,
    ...uspsDimensions(r.parcels[0]!),
    mailingDate: ymd(r.shipDate),
    mailClass: 'ALL',
    priceType,
    ...(insured && { itemValue: insured.packageValue, extraServices: [insured.code] }),
  };
}

const servicesAbroad = carrierCatalog.find((c) => c.id === 'usps')!.services.filter((s) => uspsMailClassesAbroad.has(s.code));

/**
 * Each mail class's price in cents: totalBasePrice ("the rate, fees and pound postage"), else its rates' prices and
 * fees, with the extra services asked (`codes`) as the option prices them, or its totalPrice when that is higher. A
 * class whose option does not price every code asked is one USPS does not sell with them, so it is left out rather
 * than quoted without them, as at home (extra-services.ts pricesEvery).
 */
function pricesByClass(json: unknown, codes: readonly number[]): Map<string, { cents: number; option: unknown }> {
  const out = new Map<string, { cents: number; option: unknown }>();
  for (const option of asArray(at(json, 'rateOptions'))) {
    const rates = asArray(at(option, 'rates'));
    const mailClass = asString(at(rates[0], 'mailClass'));
    const summed = rates.reduce<number>((sum, rate) => sum + (asCents(at(rate, 'price')) ?? 0) + asArray(at(rate, 'fees')).reduce<number>((f, fee) => f + (asCents(at(fee, 'price')) ?? 0), 0), 0);
    const base = asCents(at(option, 'totalBasePrice')) ?? (rates.length > 0 ? summed : undefined);
    if (!mailClass || base === undefined || !pricesEvery(option, codes)) continue;
    const withExtras = extraServiceSurcharges(option, codes).reduce((sum, s) => sum + s.amountCents, base);
    const cents = Math.max(withExtras, asCents(at(option, 'totalPrice')) ?? 0);
    const earlier = out.get(mailClass);
    // Of two options for one class, the dearer, so a label never costs more than quoted.
    if (!earlier || cents > earlier.cents) out.set(mailClass, { cents, option });
  }
  return out;
}

/**
 * Quotes from the two price lists: the account's (COMMERCIAL) amount and the RETAIL list amount of each mail class
 * shipd sells abroad. USPS publishes no transit time by country in this API, so no delivery date is promised.
 */
export function parseInternationalRates(commercial: unknown, retail: unknown, r: AbroadShipment & { services?: string[] }): CarrierResult<Quote[]> {
  const insured = uspsInsurance(r.parcels[0]!);
  const codes = insured ? [insured.code] : [];
  const account = pricesByClass(commercial, codes);
  const list = pricesByClass(retail, codes);
  const quotes: Quote[] = [];
  for (const service of servicesAbroad) {
    if (r.services && !r.services.includes(service.code)) continue;
    const priced = account.get(service.code) ?? list.get(service.code);
    if (!priced) continue;
    const rate = asArray(at(priced.option, 'rates'))[0];
    quotes.push({
      carrier: 'usps',
      service: service.code,
      serviceName: service.name,
      amountCents: priced.cents,
      listAmountCents: list.get(service.code)?.cents ?? priced.cents,
      // USPS states no currency; its international prices are in US dollars.
      currency: 'USD',
      billableWeightLb: Math.max(asNumber(at(rate, 'weight')) ?? r.parcels[0]!.weightLb, asNumber(at(rate, 'dimWeight')) ?? 0),
      zone: asString(at(rate, 'zone')) ?? '',
      deliveryDays: null,
      estimatedDeliveryDate: null,
      guaranteed: false,
      surcharges: includedSurcharges(priced.cents, [...uspsFees(priced.option), ...extraServiceSurcharges(priced.option, codes)]),
    });
  }
  if (quotes.length === 0) return failure('service_unavailable', `USPS offers none of the requested services to ${countryOf(r.to)} for this parcel${insured ? ' insured' : ''}`);
  return ok(quotes);
}
