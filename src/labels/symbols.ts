import { createRequire } from 'node:module';
import type * as IsoCountries from 'i18n-iso-countries';
import { abroadCountry, type LabelData } from './label-data.ts';
import { printable } from './printable.ts';

/** A barcode to draw: its symbology and its data, in bwip-js's terms (GS1 AIs in parentheses). */
export interface BarcodeSymbol {
  type: 'code128' | 'gs1-128' | 'maxicode' | 'pdf417';
  data: string;
  /** MaxiCode mode. */
  mode?: 2 | 3;
}

// The package's index.js, without its 80 languages: only the numeric codes are read here.
const { alpha2ToNumeric } = createRequire(import.meta.url)('i18n-iso-countries/index.js') as typeof IsoCountries;

const RS = '\x1e';
const GS = '\x1d';
const EOT = '\x04';

export const zip5 = (zip: string) => zip.replace('-', '').slice(0, 5);
const zip9 = (zip: string) => zip.replace('-', '').padEnd(9, '0').slice(0, 9);

/** The day of the year, as UPS prints pickup days. */
function julianDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return String(Math.floor((d.getTime() - start) / 86_400_000) + 1).padStart(3, '0');
}

/** Free text as the label prints it, which also keeps MaxiCode's separators (RS, GS, EOT) out of its fields. */
const clean = (s: string) => printable(s.toUpperCase()).slice(0, 35);

/**
 * UPS MaxiCode, mode 2: the primary message (ZIP+4, country 840, 3-digit class of service) and the secondary
 * message in ANSI MH10.8.3 form: `[)>` RS `01` GS `96` + tracking number, SCAC UPSN, shipper number, pickup day,
 * package 1/1, weight, address validated, and the ship-to city and state (carriers.md 7.1).
 */
export function upsMaxiCode(d: LabelData): BarcodeSymbol {
  const abroad = abroadCountry(d);
  // Abroad, mode 3: up to six letters and digits of the postal code and the country's ISO 3166 numeric code.
  const postal = abroad ? (d.to.zip ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase().slice(0, 6) : zip9(d.to.zip!);
  const fields = [
    postal,
    abroad ? alpha2ToNumeric(abroad)! : '840',
    d.serviceCode.padStart(3, '0'),
    d.trackingNumber,
    'UPSN',
    d.trackingNumber.slice(2, 8),
    julianDay(d.shipDate),
    '',
    '1/1',
    String(Math.ceil(d.weightLb)),
    'N',
    // MaxiCode's secondary message holds about 84 characters in mode 2: the street is left out, the city cut short.
    '',
    clean(d.to.city).slice(0, 15),
    clean(d.to.state ?? ''),
  ];
  return { type: 'maxicode', mode: abroad ? 3 : 2, data: `[)>${RS}01${GS}96${fields.join(GS)}${RS}${EOT}` };
}

/** USPS IMpb as GS1-128: AI 420 with the destination ZIP (9 digits when known), then the tracking number (carriers.md 6.2). */
export function uspsImpb(d: LabelData): BarcodeSymbol {
  const digits = d.to.zip!.replace('-', '');
  const tn = d.trackingNumber;
  // The tracking number opens with its channel application identifier (91–95), a GS1 AI of its own.
  return { type: 'gs1-128', data: `(420)${digits}(${tn.slice(0, 2)})${tn.slice(2)}` };
}

/** FedEx's PDF417: tracking number, destination ZIP, service and weight. */
export function fedexPdf417(d: LabelData): BarcodeSymbol {
  const abroad = abroadCountry(d);
  const where = abroad ? [(d.to.zip ?? '').replace(/\s/g, '').toUpperCase(), abroad] : [zip5(d.to.zip!), d.to.state!.toUpperCase()];
  return { type: 'pdf417', data: [d.trackingNumber, where[0], d.serviceCode, `${Math.ceil(d.weightLb)}LB`, where[1]].join(' ') };
}

export const trackingCode128 = (d: LabelData): BarcodeSymbol => ({ type: 'code128', data: d.trackingNumber });
