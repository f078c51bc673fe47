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
 * Also "Priority Mail Express International — Retail—Large Envelopes & Parcels", price groups 1–20, 0.5 lb and
 * 1–20 lb (the table goes on to 66 or 70 lb; heavier rows are not transcribed, so refused with that reason), and the
 * country table's Priority Mail Express International price group and maximum weight, read in the same page (its
 * group equals the Priority Mail International group wherever USPS offers both; Bolivia has only the former).
 *
 * Not loaded: the commercial (Commercial Base and Plus) prices — an account pays retail, as for Priority Mail Express domestically — flat-rate
 * envelopes and boxes, and each country's size limits (Individual Country Listings). USPS adds no fuel or residential
 * surcharge. The page read carries no dimensional-weight rule for these services, so test mode prices by actual
 * weight: every fraction of a pound is the next step for Priority Mail Express International and Priority Mail International ("Weight Not Over (lbs.)"), and
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

/** Priority Mail Express International — Retail, by price group: 0.5 lb, then 1–20 lb. */
const priorityMailExpressInternational: ZonePrices = {
  '1': [
    6160, 6435, 6975, 7520, 8065, 8780, 9495, 10240, 10920, 11690, 12475,
    13165, 13935, 14645, 15390, 16135, 16880, 17580, 18330, 19025, 19825,
  ],
  '2': [
    8340, 8620, 9005, 9510, 10015, 10510, 11005, 11500, 12000, 12505, 12995,
    13520, 14025, 14515, 15020, 15515, 16005, 16515, 17015, 17525, 18030,
  ],
  '3': [
    7920, 8070, 8710, 9355, 9990, 10635, 11275, 11910, 12555, 13200, 13835,
    14510, 15150, 15780, 16415, 17055, 17690, 18325, 18965, 19600, 20240,
  ],
  '4': [
    7930, 8265, 8710, 9290, 9875, 10465, 11040, 11635, 12220, 12785, 13395,
    13955, 14550, 15145, 15720, 16315, 16895, 17470, 18040, 18610, 19235,
  ],
  '5': [
    8600, 8910, 9355, 9905, 10465, 11030, 11600, 12135, 12715, 13255, 13840,
    14385, 14950, 15500, 16045, 16605, 17175, 17705, 18285, 18865, 19410,
  ],
  '6': [
    7560, 7940, 8445, 9120, 9775, 10455, 11120, 11790, 12455, 13105, 13800,
    14455, 15140, 15795, 16450, 17125, 17815, 18480, 19145, 19795, 20450,
  ],
  '7': [
    8190, 8600, 9130, 9795, 10485, 11175, 11875, 12545, 13240, 13925, 14625,
    15270, 15980, 16655, 17330, 18035, 18710, 19350, 20070, 20755, 21450,
  ],
  '8': [
    7340, 8070, 8855, 9650, 10440, 11220, 12010, 12795, 13585, 14370, 15160,
    15965, 16760, 17540, 18325, 19120, 19905, 20695, 21490, 22280, 23070,
  ],
  '9': [
    7925, 8395, 8980, 9790, 10685, 11410, 12205, 13015, 13810, 14635, 15545,
    16220, 17035, 17860, 18635, 19450, 20265, 21045, 21880, 22675, 23590,
  ],
  '10': [
    7130, 7500, 7970, 8600, 9220, 9870, 10495, 11065, 11715, 12335, 12965,
    13560, 14205, 14805, 15440, 16070, 16695, 17310, 17900, 18575, 19170,
  ],
  '11': [
    8440, 8810, 9255, 9890, 10530, 11145, 11760, 12390, 13010, 13625, 14260,
    14860, 15510, 16100, 16720, 17320, 17970, 18595, 19200, 19815, 20455,
  ],
  '12': [
    8670, 9105, 9755, 10565, 11380, 12195, 14120, 15035, 15945, 16860, 17775,
    18685, 19605, 20530, 21455, 22385, 23305, 24235, 25165, 26085, 27015,
  ],
  '13': [
    8045, 8390, 8825, 9375, 9985, 10585, 11135, 11660, 12215, 12805, 13375,
    13950, 14510, 15590, 16180, 16830, 17390, 17950, 18560, 19100, 19735,
  ],
  '14': [
    7080, 7290, 7995, 8690, 9400, 10100, 10855, 11575, 12290, 13015, 13725,
    14135, 14880, 15625, 16370, 17110, 17855, 18595, 19345, 20085, 20830,
  ],
  '15': [
    8160, 8435, 8820, 9310, 9805, 10300, 10800, 11295, 11800, 12285, 12800,
    13270, 13775, 14290, 14805, 15300, 15795, 16280, 16795, 17235, 17755,
  ],
  '16': [
    9580, 9870, 10285, 10795, 11315, 11830, 12340, 12875, 13400, 13880, 14435,
    14935, 15475, 15970, 16525, 17040, 17555, 18060, 18600, 19090, 19650,
  ],
  '17': [
    8530, 8855, 9285, 9880, 10440, 10980, 11565, 12135, 12710, 13260, 13835,
    14395, 14970, 15525, 16095, 16685, 17275, 17825, 18395, 18940, 19550,
  ],
  '18': [
    8100, 8395, 8805, 9325, 9855, 10385, 10905, 11445, 11970, 12485, 13035,
    13555, 14095, 14620, 15150, 15680, 16220, 16745, 17280, 17820, 18355,
  ],
  '19': [
    10145, 10550, 11480, 12260, 12815, 13820, 14600, 15380, 16165, 16945, 17725,
    19145, 20210, 21030, 22265, 23100, 24370, 25220, 26080, 26930, 27780,
  ],
  '20': [
    8745, 9025, 9420, 9910, 10410, 10905, 11415, 11925, 12435, 12945, 13465,
    13970, 14470, 14980, 15485, 15995, 16505, 17015, 17530, 18030, 18530,
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
 * Country price groups, and each service's maximum weight there in pounds: [PMI group, PMI max, FCPIS group, PMEI
 * group, PMEI max], null where USPS does not offer the service ("n/a").
 */
const priceGroups: Readonly<Record<string, readonly [string | null, number | null, string | null, string | null, number | null]>> = {
  AC: [null, null, '5', null, null], // Ascension
  AD: ['4', 66, '3', '4', 66], // Andorra
  AE: ['7', 66, '10', '7', 66], // United Arab Emirates
  AF: ['7', 66, '4', null, null], // Afghanistan
  AG: ['10', 22, '6', null, null], // Antigua and Barbuda
  AI: ['10', 22, '6', '10', 55], // Anguilla
  AL: ['3', 44, '3', '3', 66], // Albania
  AM: ['3', 44, '3', '3', 44], // Armenia
  AO: ['8', 44, '5', '8', 44], // Angola
  AR: ['10', 44, '11', '10', 44], // Argentina
  AT: ['4', 66, '9', '4', 66], // Austria
  AU: ['12', 66, '12', '12', 66], // Australia
  AW: ['11', 44, '6', '11', 44], // Aruba
  AZ: ['3', 70, '3', '3', 70], // Azerbaijan
  BA: ['3', 44, '3', '3', 66], // Bosnia-Herzegovina
  BB: ['10', 44, '6', '10', 66], // Barbados
  BD: ['6', 44, '4', '6', 44], // Bangladesh
  BE: ['4', 66, '9', '4', 66], // Belgium
  BF: ['9', 66, '5', '9', 70], // Burkina Faso
  BG: ['3', 70, '3', '3', 66], // Bulgaria
  BH: ['6', 44, '4', '6', 44], // Bahrain
  BI: ['8', 66, '5', '8', 66], // Burundi
  BJ: ['9', 66, '5', '9', 66], // Benin
  BM: ['10', 44, '6', '10', 44], // Bermuda
  BN: ['6', 44, '4', '6', 66], // Brunei Darussalam
  BO: [null, null, '6', '11', 66], // Bolivia
  BQ: ['10', 44, '6', '10', 66], // Bonaire, Sint Eustatius, and Saba
  BR: ['13', 66, '13', '13', 66], // Brazil
  BS: ['10', 22, '6', '10', 22], // Bahamas
  BT: ['7', 66, '4', '7', 66], // Bhutan
  BW: ['9', 66, '5', '9', 66], // Botswana
  BY: ['3', 66, '3', '3', 44], // Belarus
  BZ: ['10', 44, '6', '10', 66], // Belize
  CA: ['1', 66, '1', '1', 66], // Canada
  CD: ['9', 66, '5', '9', 66], // Congo, Democratic Republic of the
  CF: ['9', 66, '5', '9', 66], // Central African Republic
  CG: ['8', 44, '5', '8', 66], // Congo, Republic of the
  CH: ['5', 66, '9', '5', 66], // Switzerland
  CI: ['8', 66, '5', '8', 66], // Cote d'Ivoire
  CL: ['11', 44, '11', '11', 66], // Chile
  CM: ['9', 66, '5', '9', 44], // Cameroon
  CN: ['14', 66, '14', '14', 66], // China
  CO: ['10', 66, '6', '10', 44], // Colombia
  CR: ['11', 66, '6', '11', 66], // Costa Rica
  CU: ['11', 22, '6', '11', 22], // Cuba
  CV: ['8', 44, '5', '8', 66], // Cape Verde
  CW: ['11', 44, '6', '11', 66], // Curacao
  CY: ['7', 70, '4', '7', 70], // Cyprus
  CZ: ['3', 70, '7', '3', 70], // Czech Republic
  DE: ['16', 70, '16', '16', 66], // Germany
  DJ: ['9', 44, '5', '9', 44], // Djibouti
  DK: ['4', 66, '9', '4', 66], // Denmark
  DM: ['11', 44, '6', '11', 44], // Dominica
  DO: ['11', 44, '6', '11', 66], // Dominican Republic
  DZ: ['9', 44, '5', '9', 44], // Algeria
  EC: ['10', 66, '6', '10', 66], // Ecuador
  EE: ['3', 70, '9', '3', 66], // Estonia
  EG: ['8', 66, '5', '8', 44], // Egypt
  ER: ['9', 44, '5', '9', 66], // Eritrea
  ES: ['4', 44, '8', '4', 66], // Spain
  ET: ['9', 66, '5', '9', 66], // Ethiopia
  FI: ['4', 70, '9', '4', 66], // Finland
  FJ: ['6', 44, '4', '6', 66], // Fiji
  FK: [null, null, '6', null, null], // Falkland Islands
  FO: ['5', 70, '9', '5', 44], // Faroe Islands
  FR: ['15', 66, '15', '15', 66], // France
  GA: ['8', 44, '5', '8', 66], // Gabon
  GB: ['20', 66, '20', '20', 66], // United Kingdom of Great Britain and Northern Ireland
  GD: ['10', 44, '6', '10', 66], // Grenada
  GE: ['3', 44, '3', '3', 66], // Georgia, Republic of
  GF: ['11', 66, '15', '11', 66], // French Guiana
  GH: ['9', 66, '5', '9', 66], // Ghana
  GI: ['4', 44, '7', null, null], // Gibraltar
  GL: ['5', 66, '9', null, null], // Greenland
  GM: ['8', 66, '5', null, null], // Gambia
  GN: ['8', 66, '5', '8', 44], // Guinea
  GP: ['11', 66, '15', '11', 66], // Guadeloupe
  GQ: ['8', 22, '5', '8', 44], // Equatorial Guinea
  GR: ['4', 44, '8', '4', 66], // Greece
  GT: ['10', 44, '6', '10', 66], // Guatemala
  GW: ['9', 66, '5', '9', 44], // Guinea-Bissau
  GY: ['11', 44, '6', '11', 66], // Guyana
  HK: ['18', 66, '18', '18', 66], // Hong Kong
  HN: ['11', 44, '6', '11', 44], // Honduras
  HR: ['3', 66, '8', '3', 66], // Croatia
  HT: ['10', 55, '6', '10', 66], // Haiti
  HU: ['3', 44, '7', '3', 66], // Hungary
  ID: ['6', 44, '4', '6', 66], // Indonesia
  IE: ['4', 66, '9', '4', 66], // Ireland
  IL: ['4', 44, '8', '4', 44], // Israel
  IN: ['6', 44, '10', '6', 70], // India
  IQ: ['6', 44, '4', '6', 44], // Iraq
  IR: ['7', 44, '4', null, null], // Iran
  IS: ['5', 70, '7', '5', 66], // Iceland
  IT: ['4', 66, '9', '4', 66], // Italy
  JM: ['11', 22, '6', '11', 66], // Jamaica
  JO: ['7', 66, '4', '7', 66], // Jordan
  JP: ['17', 66, '17', '17', 66], // Japan
  KE: ['9', 70, '5', '9', 70], // Kenya
  KG: ['7', 44, '4', '7', 66], // Kyrgyzstan
  KH: ['6', 66, '4', '6', 66], // Cambodia
  KI: ['6', 44, '4', '6', 66], // Kiribati
  KM: ['8', 44, '5', null, null], // Comoros
  KN: ['10', 44, '6', '10', 66], // Saint (St.) Kitts and Nevis
  KP: [null, null, '4', null, null], // Korea, Democratic Peoples Republic of (North Korea)
  KR: ['18', 44, '18', '18', 66], // Korea, Republic of (South Korea)
  KW: ['6', 66, '4', '6', 66], // Kuwait
  KY: ['11', 44, '6', '11', 44], // Cayman Islands
  KZ: ['7', 44, '4', '7', 66], // Kazakhstan
  LA: ['6', 44, '4', '6', 66], // Laos
  LB: ['6', 66, '4', '6', 66], // Lebanon
  LC: ['11', 44, '6', '11', 44], // Saint Lucia
  LI: ['4', 66, '7', '4', 66], // Liechtenstein
  LK: ['6', 66, '4', '6', 66], // Sri Lanka
  LR: ['9', 44, '5', '9', 44], // Liberia
  LS: ['9', 44, '5', '9', 66], // Lesotho
  LT: ['3', 70, '7', '3', 70], // Lithuania
  LU: ['4', 66, '8', '4', 66], // Luxembourg
  LV: ['3', 70, '3', '3', 66], // Latvia
  LY: ['9', 44, '5', null, null], // Libya
  MA: ['9', 66, '5', '9', 68], // Morocco
  MD: ['3', 70, '3', '3', 70], // Moldova
  ME: ['3', 70, '3', null, null], // Montenegro
  MG: ['9', 44, '5', '9', 66], // Madagascar
  MK: ['3', 70, '3', '3', 66], // North Macedonia, Republic of
  ML: ['8', 66, '5', '8', 66], // Mali
  MM: ['6', 22, '4', '6', 44], // Burma
  MN: ['7', 66, '4', '7', 66], // Mongolia
  MO: ['6', 70, '4', '6', 44], // Macao
  MQ: ['11', 66, '15', '11', 66], // Martinique
  MR: ['8', 44, '5', '8', 66], // Mauritania
  MS: ['10', 44, '6', null, null], // Montserrat
  MT: ['5', 66, '3', '5', 44], // Malta
  MU: ['8', 44, '5', '8', 66], // Mauritius
  MV: ['6', 66, '4', '6', 66], // Maldives
  MW: ['9', 66, '5', '9', 44], // Malawi
  MX: ['2', 70, '2', '2', 70], // Mexico
  MY: ['7', 66, '10', '7', 66], // Malaysia
  MZ: ['9', 66, '5', '9', 66], // Mozambique
  NA: ['8', 44, '5', '8', 22], // Namibia
  NC: ['7', 66, '4', '7', 66], // New Caledonia
  NE: ['9', 70, '5', '9', 70], // Niger
  NG: ['9', 66, '5', '9', 66], // Nigeria
  NI: ['10', 66, '6', '10', 55], // Nicaragua
  NL: ['4', 66, '9', '4', 66], // Netherlands
  NO: ['5', 66, '9', '5', 66], // Norway
  NP: ['6', 44, '4', '6', 69], // Nepal
  NR: ['6', 44, '4', '6', 44], // Nauru
  NZ: ['12', 66, '12', '12', 66], // New Zealand
  OM: ['6', 44, '4', '6', 66], // Oman
  PA: ['11', 70, '6', '11', 66], // Panama
  PE: ['11', 70, '6', '11', 70], // Peru
  PF: ['7', 66, '4', '7', 66], // French Polynesia
  PG: ['7', 44, '4', '7', 55], // Papua New Guinea
  PH: ['6', 44, '4', '6', 44], // Philippines
  PK: ['6', 70, '4', '6', 66], // Pakistan
  PL: ['3', 44, '7', '3', 44], // Poland
  PM: ['15', 66, '15', null, null], // Saint Pierre and Miquelon
  PN: ['6', 22, '4', null, null], // Pitcairn Island
  PT: ['4', 66, '7', '4', 66], // Portugal
  PY: ['10', 66, '6', '10', 55], // Paraguay
  QA: ['7', 70, '4', '7', 66], // Qatar
  RE: ['8', 66, '15', null, null], // Reunion
  RO: ['3', 70, '3', '3', 70], // Romania
  RS: ['3', 70, '3', '3', 66], // Serbia, Republic of
  RU: ['19', 44, '19', '19', 70], // Russia
  RW: ['9', 66, '5', '9', 66], // Rwanda
  SA: ['6', 66, '4', '6', 66], // Saudi Arabia
  SB: ['6', 44, '4', '6', 66], // Solomon Islands
  SC: ['8', 70, '5', '8', 66], // Seychelles
  SD: ['9', 44, '5', '9', 66], // Sudan
  SE: ['5', 44, '8', '5', 44], // Sweden
  SG: ['6', 66, '10', '6', 66], // Singapore
  SH: ['9', 44, '5', null, null], // Saint Helena
  SI: ['3', 66, '8', '3', 66], // Slovenia
  SK: ['3', 66, '3', '3', 66], // Slovak Republic (Slovakia)
  SL: ['9', 66, '5', '9', 66], // Sierra Leone
  SM: ['5', 66, '8', '5', 66], // San Marino
  SN: ['8', 66, '5', '8', 66], // Senegal
  SO: [null, null, null, null, null], // Somalia
  SR: ['11', 44, '6', null, null], // Suriname
  SS: ['8', 44, '5', null, null], // South Sudan, Republic of
  ST: ['8', 44, '5', '8', 66], // Sao Tome and Principe
  SV: ['11', 44, '6', '11', 66], // El Salvador
  SX: ['11', 44, '6', '11', 66], // Sint Maarten (Dutch)
  SY: ['6', 70, '4', '6', 44], // Syrian Arab Republic (Syria)
  SZ: ['8', 44, '5', '8', 66], // Eswatini
  TA: ['9', 22, '5', null, null], // Tristan da Cunha
  TC: ['10', 44, '6', '10', 66], // Turks and Caicos Islands
  TD: ['8', 44, '5', '8', 66], // Chad
  TG: ['9', 70, '5', '9', 66], // Togo
  TH: ['6', 66, '10', '6', 66], // Thailand
  TJ: ['7', 66, '4', '7', 66], // Tajikistan
  TL: ['7', 44, '4', null, null], // Timor-Leste, Democratic Republic of
  TM: ['6', 44, '4', '6', 66], // Turkmenistan
  TN: ['9', 66, '5', '9', 66], // Tunisia
  TO: ['6', 44, '4', '6', 66], // Tonga
  TR: ['4', 66, '3', '4', 66], // Turkiye, Republic of
  TT: ['10', 44, '6', '10', 66], // Trinidad and Tobago
  TV: ['6', 55, '4', null, null], // Tuvalu
  TW: ['7', 44, '10', '7', 33], // Taiwan
  TZ: ['9', 66, '5', '9', 66], // Tanzania
  UA: ['3', 66, '3', '3', 44], // Ukraine
  UG: ['9', 66, '5', '9', 66], // Uganda
  UY: ['11', 66, '6', '11', 44], // Uruguay
  UZ: ['7', 70, '4', '7', 66], // Uzbekistan
  VA: ['4', 44, '9', '4', 66], // Vatican City
  VC: ['10', 22, '6', '10', 44], // Saint Vincent and the Grenadines
  VE: ['11', 66, '11', '11', 66], // Venezuela
  VG: ['10', 44, '6', null, null], // British Virgin Islands
  VN: ['6', 70, '4', '6', 66], // Vietnam
  VU: ['7', 44, '4', '7', 55], // Vanuatu
  WF: ['6', 66, '4', null, null], // Wallis and Futuna Islands
  WS: ['7', 44, '4', '7', 44], // Samoa
  XK: ['3', 70, '3', null, null], // Kosovo, Republic of
  YE: ['7', 66, '4', '7', 66], // Yemen
  ZA: ['9', 66, '5', '9', 66], // South Africa
  ZM: ['8', 66, '5', '8', 66], // Zambia
  ZW: ['8', 44, '5', '8', 44], // Zimbabwe
};
/** Each service's columns in priceGroups: its price group, and its maximum weight where the country sets one. */
const services = {
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: { group: 3, max: 4, name: 'Priority Mail Express International' },
  PRIORITY_MAIL_INTERNATIONAL: { group: 0, max: 1, name: 'Priority Mail International' },
  'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': { group: 2, max: undefined, name: 'First-Class Package International Service' },
} as const;

function countryMaxWeightLb(service: string, to: IntlDestination): number | undefined {
  const column = services[service as keyof typeof services]?.max;
  return column === undefined ? undefined : (priceGroups[to.country]?.[column] ?? undefined);
}

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
      code: 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL',
      name: services.PRIORITY_MAIL_EXPRESS_INTERNATIONAL.name,
      upToLb: [0.5, ...Array.from({ length: 20 }, (_, i) => i + 1)],
      list: priorityMailExpressInternational,
      maxWeightLb: 70,
      dimensional: false,
      fuel: 0,
    },
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
  countryMaxWeightLb,
  fuelBearing: [],
};
