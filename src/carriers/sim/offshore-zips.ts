/**
 * The Alaska and Hawaii ZIPs that UPS zones as "metro" (Next Day Air zone 124, 2nd Day Air 224: today's 44) rather
 * than "rural" (126 and 226: today's 46). Source: the UPS zone chart for origins 450-01 to 452-99, its footnotes [2]
 * and [3], as stored in interchange/interchange dist/standard/products/ship/450.csv (commit 65db8eda, 2004-04-25).
 * Every other Alaska or Hawaii ZIP is rural. FedEx splits the same states into metro and rural zones (Service Guide,
 * January 6, 2025: zones 9/10 metro, 11/12 rural) without publishing the list, so its zones use this one too.
 */
const metroRanges = [
  // Hawaii: Oahu.
  '96701', '96706-96707', '96709', '96712', '96717', '96730-96731', '96734', '96744', '96759', '96762', '96782', '96786',
  '96789', '96791-96792', '96795', '96797', '96801-96828', '96830', '96835-96850', '96853-96854', '96857-96863', '96898',
  // Alaska: Anchorage, Fairbanks and the road system between them.
  '99501-99524', '99540', '99556', '99567-99568', '99572', '99577', '99587', '99603', '99605', '99610-99611', '99631',
  '99635', '99639', '99645', '99654', '99664', '99669', '99672', '99687', '99701-99703', '99705-99712', '99775',
] as const;

const metro: readonly (readonly [number, number])[] = metroRanges.map((r) => {
  const [from, to = from] = r.split('-');
  return [Number(from), Number(to)] as const;
});

/** True for an Alaska or Hawaii ZIP in UPS's metro list. */
export function isAlaskaHawaiiMetro(zip: string): boolean {
  const n = Number(zip.slice(0, 5));
  return metro.some(([from, to]) => n >= from && n <= to);
}
