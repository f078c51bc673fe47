/**
 * USPS international prices from the U.S.: Notice 123, Price List, "Effective October 05, 2025" (pe.usps.com/text/
 * dmm300/Notice123.htm), read in the copy of that page kept in github.com/kennethd/discoship at
 * discoship/tests/data/fetch_url-fetch_usps_rate_tables.htm (commit 3a97b25).
 *
 * Covers: "Priority Mail International — Retail—Large Envelopes & Parcels", price groups 1–20, 1–20 lb (the
 * table goes on to 66 or 70 lb; rows above 20 lb are not transcribed, so a heavier parcel is refused with that
 * reason); "First-Class Package International Service — Retail" (weight steps up to 8, 32, 48 and 64 oz), price
 * groups 1–20; and "Country Price Groups", every country's price group for Priority Mail International and FCPIS and
 * its Priority Mail International maximum weight ("n/a" where USPS does not offer a service: refused). The FCPIS
 * figures of groups 11–20 were read in that page; those of groups 1–10 are the same page's table as recorded by the
 * same repository's scraper in discoship/data/discoship.db (usps_fcpis_rates, commit 25e647c), whose groups 11–20
 * equal the page's to the cent; its FCPIS price group of every country equals the page's too.
 *
 * Not loaded: Priority Mail Express International (refused in test mode: no table transcribed), the commercial
 * (Commercial Base and Plus) prices — an account pays retail, as for Priority Mail Express domestically — flat-rate
 * envelopes and boxes, and each country's size limits (Individual Country Listings). USPS adds no fuel or residential
 * surcharge. The page read carries no dimensional-weight rule for these services, so test mode prices by actual
 * weight: every fraction of a pound is the next pound for Priority Mail International ("Weight Not Over (lbs.)"), and
 * FCPIS goes by its ounce steps, 4 lb at most (the page's note 3 to the country table).
 */
import type { IntlDestination, IntlPriceList, ZonePrices } from './types.ts';

/** Priority Mail International — Retail, by price group: 1–20 lb. */
const priorityMailInternational: ZonePrices = {
  '1': [
    4295, 4640, 4980, 5325, 5790, 6270, 6765, 7270, 7755, 8270,
    8755, 9260, 9745, 10250, 10760, 11260, 11780, 12310, 12790, 13315,
  ],
  '2': [
    5670, 6120, 6645, 7090, 7540, 8010, 8490, 8955, 9430, 9905,
    10375, 10850, 11320, 11795, 12120, 12605, 13095, 13575, 14075, 14560,
  ],
  '3': [
    6420, 6960, 7530, 8120, 8710, 9325, 9950, 10570, 11195, 11815,
    12440, 13055, 13680, 14300, 14925, 15540, 16165, 16785, 17410, 18030,
  ],
  '4': [
    6425, 6945, 7475, 8000, 8520, 9055, 9590, 10125, 10660, 11200,
    11735, 12270, 12800, 13335, 13775, 14315, 14865, 15425, 15955, 16540,
  ],
  '5': [
    6875, 7405, 7940, 8475, 8995, 9535, 10075, 10625, 11150, 11700,
    12235, 12780, 13320, 13860, 14335, 14885, 15435, 16000, 16540, 17125,
  ],
  '6': [
    6255, 6790, 7320, 7875, 8500, 9140, 9790, 10430, 11075, 11725,
    12365, 13000, 13640, 14290, 14870, 15525, 16190, 16855, 17520, 18195,
  ],
  '7': [
    6370, 6910, 7545, 8235, 8915, 9605, 10300, 11000, 11700, 12395,
    13090, 13785, 14465, 15175, 15840, 16550, 17265, 17990, 18680, 19425,
  ],
  '8': [
    6205, 6940, 7670, 8410, 9150, 9885, 10625, 11365, 12095, 12835,
    13570, 14310, 15040, 15780, 16520, 17255, 17995, 18730, 19465, 20205,
  ],
  '9': [
    6260, 6975, 7770, 8555, 9310, 10085, 10880, 11655, 12435, 13220,
    14000, 14775, 15635, 16335, 17130, 17930, 18740, 19545, 20350, 21175,
  ],
  '10': [
    5950, 6470, 7015, 7575, 8160, 8765, 9345, 9945, 10545, 11135,
    11720, 12315, 12905, 13495, 14005, 14605, 15215, 15835, 16440, 17050,
  ],
  '11': [
    5985, 6565, 7215, 7825, 8425, 9045, 9670, 10295, 10915, 11545,
    12160, 12775, 13405, 14030, 14570, 15210, 15850, 16505, 17130, 17785,
  ],
  '12': [
    6620, 7370, 8265, 9145, 10010, 12515, 13350, 14200, 15045, 15890,
    16735, 17575, 18425, 19270, 20120, 20965, 21800, 22650, 23495, 24350,
  ],
  '13': [
    6485, 7060, 7685, 8365, 9000, 9695, 10345, 11015, 11685, 12335,
    13025, 13675, 14320, 14995, 15635, 16300, 16980, 17665, 18310, 19065,
  ],
  '14': [
    6150, 6630, 7100, 7610, 8170, 8720, 9300, 9875, 10420, 11005,
    11560, 12140, 12700, 13265, 13730, 14305, 14875, 15460, 16040, 16650,
  ],
  '15': [
    6675, 7105, 7540, 7980, 8400, 8840, 9280, 9730, 10165, 10615,
    11045, 11490, 11935, 12375, 12680, 13135, 13580, 14050, 14495, 14965,
  ],
  '16': [
    7530, 8005, 8480, 8955, 9415, 9895, 10370, 10855, 11330, 11820,
    12295, 12775, 13255, 13735, 14130, 14580, 15110, 15605, 16095, 16590,
  ],
  '17': [
    6125, 6555, 7025, 7520, 7985, 8480, 8970, 9460, 9945, 10450,
    10925, 11420, 11910, 12395, 12765, 13250, 13765, 14265, 14780, 15285,
  ],
  '18': [
    6375, 6855, 7355, 7865, 8365, 8875, 9390, 9910, 10420, 10940,
    11440, 11965, 12480, 12995, 13395, 13915, 14455, 14985, 15515, 16060,
  ],
  '19': [
    7945, 8500, 9800, 10895, 11860, 12825, 13790, 14755, 15515, 16200,
    17650, 18660, 19655, 20650, 21645, 22640, 23635, 24630, 25630, 26625,
  ],
  '20': [
    6760, 7300, 7860, 8410, 8935, 9490, 10045, 10605, 11155, 11725,
    12260, 12830, 13385, 13935, 14425, 14990, 15540, 16130, 16680, 17275,
  ],
};

/** First-Class Package International Service — Retail, by price group: up to 8, 32, 48 and 64 oz. */
const firstClassPackageInternational: ZonePrices = {
  '1': [1785, 2600, 3850, 4760],
  '2': [1805, 2660, 3900, 5105],
  '3': [2000, 3735, 5625, 7435],
  '4': [1905, 3835, 5445, 7830],
  '5': [1905, 3830, 5220, 7260],
  '6': [1905, 3425, 5195, 6985],
  '7': [1930, 2995, 4890, 6625],
  '8': [2135, 3115, 5010, 6750],
  '9': [2250, 3465, 5440, 7555],
  '10': [1935, 3115, 5015, 6865],
  '11': [2380, 4045, 5595, 7200],
  '12': [2260, 4125, 6525, 7910],
  '13': [2435, 3740, 5640, 7570],
  '14': [1990, 3205, 4880, 6670],
  '15': [2205, 2940, 4775, 6505],
  '16': [2060, 2995, 4860, 6625],
  '17': [2105, 3395, 5265, 7190],
  '18': [2185, 3205, 5165, 6730],
  '19': [2055, 3180, 5070, 7000],
  '20': [2100, 3195, 4925, 6425],
};

/**
 * Country price groups, and each service's maximum weight there in pounds: [PMI group, PMI max, FCPIS group], null
 * where USPS does not offer the service ("n/a").
 */
const priceGroups: Readonly<Record<string, readonly [string | null, number | null, string | null]>> = {
  AC: [null, null, '5'], // Ascension
  AD: ['4', 66, '3'], // Andorra
  AE: ['7', 66, '10'], // United Arab Emirates
  AF: ['7', 66, '4'], // Afghanistan
  AG: ['10', 22, '6'], // Antigua and Barbuda
  AI: ['10', 22, '6'], // Anguilla
  AL: ['3', 44, '3'], // Albania
  AM: ['3', 44, '3'], // Armenia
  AO: ['8', 44, '5'], // Angola
  AR: ['10', 44, '11'], // Argentina
  AT: ['4', 66, '9'], // Austria
  AU: ['12', 66, '12'], // Australia
  AW: ['11', 44, '6'], // Aruba
  AZ: ['3', 70, '3'], // Azerbaijan
  BA: ['3', 44, '3'], // Bosnia-Herzegovina
  BB: ['10', 44, '6'], // Barbados
  BD: ['6', 44, '4'], // Bangladesh
  BE: ['4', 66, '9'], // Belgium
  BF: ['9', 66, '5'], // Burkina Faso
  BG: ['3', 70, '3'], // Bulgaria
  BH: ['6', 44, '4'], // Bahrain
  BI: ['8', 66, '5'], // Burundi
  BJ: ['9', 66, '5'], // Benin
  BM: ['10', 44, '6'], // Bermuda
  BN: ['6', 44, '4'], // Brunei Darussalam
  BO: [null, null, '6'], // Bolivia
  BQ: ['10', 44, '6'], // Bonaire, Sint Eustatius, and Saba
  BR: ['13', 66, '13'], // Brazil
  BS: ['10', 22, '6'], // Bahamas
  BT: ['7', 66, '4'], // Bhutan
  BW: ['9', 66, '5'], // Botswana
  BY: ['3', 66, '3'], // Belarus
  BZ: ['10', 44, '6'], // Belize
  CA: ['1', 66, '1'], // Canada
  CD: ['9', 66, '5'], // Congo, Democratic Republic of the
  CF: ['9', 66, '5'], // Central African Republic
  CG: ['8', 44, '5'], // Congo, Republic of the
  CH: ['5', 66, '9'], // Switzerland
  CI: ['8', 66, '5'], // Cote d'Ivoire
  CL: ['11', 44, '11'], // Chile
  CM: ['9', 66, '5'], // Cameroon
  CN: ['14', 66, '14'], // China
  CO: ['10', 66, '6'], // Colombia
  CR: ['11', 66, '6'], // Costa Rica
  CU: ['11', 22, '6'], // Cuba
  CV: ['8', 44, '5'], // Cape Verde
  CW: ['11', 44, '6'], // Curacao
  CY: ['7', 70, '4'], // Cyprus
  CZ: ['3', 70, '7'], // Czech Republic
  DE: ['16', 70, '16'], // Germany
  DJ: ['9', 44, '5'], // Djibouti
  DK: ['4', 66, '9'], // Denmark
  DM: ['11', 44, '6'], // Dominica
  DO: ['11', 44, '6'], // Dominican Republic
  DZ: ['9', 44, '5'], // Algeria
  EC: ['10', 66, '6'], // Ecuador
  EE: ['3', 70, '9'], // Estonia
  EG: ['8', 66, '5'], // Egypt
  ER: ['9', 44, '5'], // Eritrea
  ES: ['4', 44, '8'], // Spain
  ET: ['9', 66, '5'], // Ethiopia
  FI: ['4', 70, '9'], // Finland
  FJ: ['6', 44, '4'], // Fiji
  FK: [null, null, '6'], // Falkland Islands
  FO: ['5', 70, '9'], // Faroe Islands
  FR: ['15', 66, '15'], // France
  GA: ['8', 44, '5'], // Gabon
  GB: ['20', 66, '20'], // United Kingdom of Great Britain and Northern Ireland
  GD: ['10', 44, '6'], // Grenada
  GE: ['3', 44, '3'], // Georgia, Republic of
  GF: ['11', 66, '15'], // French Guiana
  GH: ['9', 66, '5'], // Ghana
  GI: ['4', 44, '7'], // Gibraltar
  GL: ['5', 66, '9'], // Greenland
  GM: ['8', 66, '5'], // Gambia
  GN: ['8', 66, '5'], // Guinea
  GP: ['11', 66, '15'], // Guadeloupe
  GQ: ['8', 22, '5'], // Equatorial Guinea
  GR: ['4', 44, '8'], // Greece
  GT: ['10', 44, '6'], // Guatemala
  GW: ['9', 66, '5'], // Guinea-Bissau
  GY: ['11', 44, '6'], // Guyana
  HK: ['18', 66, '18'], // Hong Kong
  HN: ['11', 44, '6'], // Honduras
  HR: ['3', 66, '8'], // Croatia
  HT: ['10', 55, '6'], // Haiti
  HU: ['3', 44, '7'], // Hungary
  ID: ['6', 44, '4'], // Indonesia
  IE: ['4', 66, '9'], // Ireland
  IL: ['4', 44, '8'], // Israel
  IN: ['6', 44, '10'], // India
  IQ: ['6', 44, '4'], // Iraq
  IR: ['7', 44, '4'], // Iran
  IS: ['5', 70, '7'], // Iceland
  IT: ['4', 66, '9'], // Italy
  JM: ['11', 22, '6'], // Jamaica
  JO: ['7', 66, '4'], // Jordan
  JP: ['17', 66, '17'], // Japan
  KE: ['9', 70, '5'], // Kenya
  KG: ['7', 44, '4'], // Kyrgyzstan
  KH: ['6', 66, '4'], // Cambodia
  KI: ['6', 44, '4'], // Kiribati
  KM: ['8', 44, '5'], // Comoros
  KN: ['10', 44, '6'], // Saint (St.) Kitts and Nevis
  KP: [null, null, '4'], // Korea, Democratic Peoples Republic of (North Korea)
  KR: ['18', 44, '18'], // Korea, Republic of (South Korea)
  KW: ['6', 66, '4'], // Kuwait
  KY: ['11', 44, '6'], // Cayman Islands
  KZ: ['7', 44, '4'], // Kazakhstan
  LA: ['6', 44, '4'], // Laos
  LB: ['6', 66, '4'], // Lebanon
  LC: ['11', 44, '6'], // Saint Lucia
  LI: ['4', 66, '7'], // Liechtenstein
  LK: ['6', 66, '4'], // Sri Lanka
  LR: ['9', 44, '5'], // Liberia
  LS: ['9', 44, '5'], // Lesotho
  LT: ['3', 70, '7'], // Lithuania
  LU: ['4', 66, '8'], // Luxembourg
  LV: ['3', 70, '3'], // Latvia
  LY: ['9', 44, '5'], // Libya
  MA: ['9', 66, '5'], // Morocco
  MD: ['3', 70, '3'], // Moldova
  ME: ['3', 70, '3'], // Montenegro
  MG: ['9', 44, '5'], // Madagascar
  MK: ['3', 70, '3'], // North Macedonia, Republic of
  ML: ['8', 66, '5'], // Mali
  MM: ['6', 22, '4'], // Burma
  MN: ['7', 66, '4'], // Mongolia
  MO: ['6', 70, '4'], // Macao
  MQ: ['11', 66, '15'], // Martinique
  MR: ['8', 44, '5'], // Mauritania
  MS: ['10', 44, '6'], // Montserrat
  MT: ['5', 66, '3'], // Malta
  MU: ['8', 44, '5'], // Mauritius
  MV: ['6', 66, '4'], // Maldives
  MW: ['9', 66, '5'], // Malawi
  MX: ['2', 70, '2'], // Mexico
  MY: ['7', 66, '10'], // Malaysia
  MZ: ['9', 66, '5'], // Mozambique
  NA: ['8', 44, '5'], // Namibia
  NC: ['7', 66, '4'], // New Caledonia
  NE: ['9', 70, '5'], // Niger
  NG: ['9', 66, '5'], // Nigeria
  NI: ['10', 66, '6'], // Nicaragua
  NL: ['4', 66, '9'], // Netherlands
  NO: ['5', 66, '9'], // Norway
  NP: ['6', 44, '4'], // Nepal
  NR: ['6', 44, '4'], // Nauru
  NZ: ['12', 66, '12'], // New Zealand
  OM: ['6', 44, '4'], // Oman
  PA: ['11', 70, '6'], // Panama
  PE: ['11', 70, '6'], // Peru
  PF: ['7', 66, '4'], // French Polynesia
  PG: ['7', 44, '4'], // Papua New Guinea
  PH: ['6', 44, '4'], // Philippines
  PK: ['6', 70, '4'], // Pakistan
  PL: ['3', 44, '7'], // Poland
  PM: ['15', 66, '15'], // Saint Pierre and Miquelon
  PN: ['6', 22, '4'], // Pitcairn Island
  PT: ['4', 66, '7'], // Portugal
  PY: ['10', 66, '6'], // Paraguay
  QA: ['7', 70, '4'], // Qatar
  RE: ['8', 66, '15'], // Reunion
  RO: ['3', 70, '3'], // Romania
  RS: ['3', 70, '3'], // Serbia, Republic of
  RU: ['19', 44, '19'], // Russia
  RW: ['9', 66, '5'], // Rwanda
  SA: ['6', 66, '4'], // Saudi Arabia
  SB: ['6', 44, '4'], // Solomon Islands
  SC: ['8', 70, '5'], // Seychelles
  SD: ['9', 44, '5'], // Sudan
  SE: ['5', 44, '8'], // Sweden
  SG: ['6', 66, '10'], // Singapore
  SH: ['9', 44, '5'], // Saint Helena
  SI: ['3', 66, '8'], // Slovenia
  SK: ['3', 66, '3'], // Slovak Republic (Slovakia)
  SL: ['9', 66, '5'], // Sierra Leone
  SM: ['5', 66, '8'], // San Marino
  SN: ['8', 66, '5'], // Senegal
  SO: [null, null, null], // Somalia
  SR: ['11', 44, '6'], // Suriname
  SS: ['8', 44, '5'], // South Sudan, Republic of
  ST: ['8', 44, '5'], // Sao Tome and Principe
  SV: ['11', 44, '6'], // El Salvador
  SX: ['11', 44, '6'], // Sint Maarten (Dutch)
  SY: ['6', 70, '4'], // Syrian Arab Republic (Syria)
  SZ: ['8', 44, '5'], // Eswatini
  TA: ['9', 22, '5'], // Tristan da Cunha
  TC: ['10', 44, '6'], // Turks and Caicos Islands
  TD: ['8', 44, '5'], // Chad
  TG: ['9', 70, '5'], // Togo
  TH: ['6', 66, '10'], // Thailand
  TJ: ['7', 66, '4'], // Tajikistan
  TL: ['7', 44, '4'], // Timor-Leste, Democratic Republic of
  TM: ['6', 44, '4'], // Turkmenistan
  TN: ['9', 66, '5'], // Tunisia
  TO: ['6', 44, '4'], // Tonga
  TR: ['4', 66, '3'], // Turkiye, Republic of
  TT: ['10', 44, '6'], // Trinidad and Tobago
  TV: ['6', 55, '4'], // Tuvalu
  TW: ['7', 44, '10'], // Taiwan
  TZ: ['9', 66, '5'], // Tanzania
  UA: ['3', 66, '3'], // Ukraine
  UG: ['9', 66, '5'], // Uganda
  UY: ['11', 66, '6'], // Uruguay
  UZ: ['7', 70, '4'], // Uzbekistan
  VA: ['4', 44, '9'], // Vatican City
  VC: ['10', 22, '6'], // Saint Vincent and the Grenadines
  VE: ['11', 66, '11'], // Venezuela
  VG: ['10', 44, '6'], // British Virgin Islands
  VN: ['6', 70, '4'], // Vietnam
  VU: ['7', 44, '4'], // Vanuatu
  WF: ['6', 66, '4'], // Wallis and Futuna Islands
  WS: ['7', 44, '4'], // Samoa
  XK: ['3', 70, '3'], // Kosovo, Republic of
  YE: ['7', 66, '4'], // Yemen
  ZA: ['9', 66, '5'], // South Africa
  ZM: ['8', 66, '5'], // Zambia
  ZW: ['8', 44, '5'], // Zimbabwe
};
const services = {
  PRIORITY_MAIL_INTERNATIONAL: { group: 0, name: 'Priority Mail International' },
  'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': { group: 2, name: 'First-Class Package International Service' },
} as const;

function zone(service: string, to: IntlDestination) {
  const groups = priceGroups[to.country];
  if (!groups) return { refused: `Notice 123's country price groups have no ${to.country}` };
  const column = services[service as keyof typeof services]?.group;
  const group = column === undefined ? null : groups[column];
  return group ? { zone: group } : { refused: `USPS does not offer it to ${to.country} (Notice 123: n/a)` };
}

export const uspsInternational2025: IntlPriceList = {
  carrier: 'usps',
  source: 'USPS Notice 123 of October 5, 2025, international retail prices',
  effective: '2025-10-05',
  dim: { divisor: 166, minCubicIn: 1728 },
  services: [
    {
      code: 'PRIORITY_MAIL_INTERNATIONAL',
      name: services.PRIORITY_MAIL_INTERNATIONAL.name,
      upToLb: Array.from({ length: 20 }, (_, i) => i + 1),
      list: priorityMailInternational,
      maxWeightLb: 70,
      dimensional: false,
      fuel: 0,
    },
    {
      code: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE',
      name: services['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE'].name,
      upToLb: [0.5, 2, 3, 4],
      list: firstClassPackageInternational,
      maxWeightLb: 4,
      dimensional: false,
      fuel: 0,
    },
  ],
  // USPS publishes what an account pays (commercial prices); none is loaded, so the account pays retail.
  accountDiscount: 0,
  zone,
  countryMaxWeightLb: (service, to) => (service === 'PRIORITY_MAIL_INTERNATIONAL' ? (priceGroups[to.country]?.[1] ?? undefined) : undefined),
  fuelBearing: [],
};
