import type { CarrierId } from '../../../config.ts';

export interface BasketItem {
  carrier: CarrierId;
  service: string;
  lb: number;
  /** Zone label as the carrier prints it. */
  zone: string;
  /** The published price of that cell, read off the carrier's document, in cents. */
  cents: number;
}

/** Where each carrier's basket figures were read; the same documents the price files transcribe. */
export const basketSources: Readonly<Partial<Record<CarrierId, string>>> = {
  ups:
    'UPS 2026 daily rates workbook (daily-rates-us-en.xlsx), effective December 22, 2025: sheets "UPS Ground" (zones 2, 4, 8), ' +
    '"UPS 2DA" (zones 202, 204, 208) and "UPS NDA" (zones 102, 104, 108); copy in github.com/jfdelascarreras/logifacts, ' +
    'Invoices skills/ups-plan-invoice-csv/daily-rates-us-en.xlsx (commit 007b691)',
  fedex:
    'FedEx Standard List Rates, effective January 5, 2026, updated June 1, 2026: "U.S. package rates: Zone 2/4/8" (FedEx 2Day, ' +
    'FedEx Standard Overnight columns) and "FedEx Ground and FedEx Home Delivery rates: Zones 2–8"; PDF in ' +
    'github.com/jfdelascarreras/logifacts, lib/pricing/data/sources/fedex/FedEx_Standard_List_Rates_2026.pdf (commit 07dc5e0)',
  usps:
    'USPS Notice 123, Price List (pe.usps.com/text/dmm300/Notice123.htm): USPS Ground Advantage — Retail, Priority Mail — Retail, ' +
    'Priority Mail Express — Retail, zones 2, 5 and 8, as in force on 2026-09-28; copy in github.com/Lxr-max/WebHarbor, ' +
    'sites/usps/source_data/pricing.json (commit 16df088)',
};

const cells = (carrier: CarrierId, service: string, byZone: Record<string, [number, number, number]>): BasketItem[] =>
  Object.entries(byZone).flatMap(([zone, prices]) => [1, 5, 20].map((lb, i) => ({ carrier, service, lb, zone, cents: prices[i]! })));

/**
 * A basket of published cells, 1, 5 and 20 lb to a near, a middle and a far zone, for ground, two-day and
 * overnight service: test mode's list prices must equal these to the cent. UPS prints its air zones with the
 * service's prefix (2nd Day Air 202, Next Day Air 102); the cells here carry the Ground label the simulator quotes.
 */
export const priceBasket: readonly BasketItem[] = [
  ...cells('ups', '03', { '2': [1199, 1419, 1920], '4': [1351, 1715, 2188], '8': [1503, 2172, 4333] }),
  ...cells('ups', '02', { '2': [2713, 3016, 5620], '4': [2942, 3808, 8470], '8': [4667, 8333, 21737] }),
  ...cells('ups', '01', { '2': [4506, 5475, 9120], '4': [8664, 11967, 23501], '8': [11530, 15694, 29892] }),
  ...cells('fedex', 'FEDEX_GROUND', { '2': [1199, 1406, 1936], '4': [1326, 1706, 2232], '8': [1501, 2169, 4352] }),
  ...cells('fedex', 'FEDEX_2_DAY', { '2': [2646, 2971, 5579], '4': [2944, 3811, 8547], '8': [4697, 8338, 21778] }),
  ...cells('fedex', 'STANDARD_OVERNIGHT', { '2': [4082, 5195, 8536], '4': [7311, 10746, 22622], '8': [9965, 14130, 28474] }),
  ...cells('usps', 'USPS_GROUND_ADVANTAGE', { '02': [995, 1355, 2295], '05': [1095, 1745, 3515], '08': [1290, 2605, 6940] }),
  ...cells('usps', 'PRIORITY_MAIL', { '02': [1150, 1495, 2580], '05': [1305, 2210, 4695], '08': [1695, 3690, 10940] }),
  ...cells('usps', 'PRIORITY_MAIL_EXPRESS', { '02': [3635, 4105, 9610], '05': [5150, 8500, 18285], '08': [6280, 10150, 20855] }),
];

/** Where the account basket's figures were read; the same documents the price files transcribe. */
export const accountBasketSources: Readonly<Partial<Record<CarrierId, string>>> = {
  usps:
    'USPS Notice 123, Price List, effective July 12, 2026: USPS Ground Advantage — Commercial and Priority Mail — Commercial, ' +
    'zones 2, 5 and 8; copy in github.com/dj-pearson/GradeThread, src/lib/usps-rate-schedule.ts (commit b4d6d0d), the same ' +
    'figures in github.com/proofnotfluff-a11y/Proofnotfluff-pins, engines/shipping-true-cost/build_xlsx.py (commit 7ac1d32)',
};

/**
 * Published account prices, where a carrier publishes them (USPS commercial): at these cells test mode's account price
 * must equal the figure to the cent. Priority Mail Express — Commercial is not in any stored copy, so it has no cells.
 */
export const accountBasket: readonly BasketItem[] = [
  ...cells('usps', 'USPS_GROUND_ADVANTAGE', { '02': [768, 976, 1706], '05': [874, 1348, 2493], '08': [1067, 1919, 4039] }),
  ...cells('usps', 'PRIORITY_MAIL', { '02': [932, 1156, 2069], '05': [1297, 2152, 4481], '08': [1522, 2918, 6806] }),
];
