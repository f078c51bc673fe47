import type { ContentsType, CustomsDeclaration, CustomsLine, DocumentAddress, DocumentMoney, DocumentWeight } from './customs-data.ts';

// The sums and words every customs document prints alike. Totals are worked out here from the lines, so no form
// can show a total that disagrees with the lines above it; amounts stay decimal strings, summed as integers.

const decimal = /^[0-9]+(\.[0-9]+)?$/;

function decimals(amount: string): number {
  if (!decimal.test(amount)) throw new RangeError(`not a decimal amount: ${JSON.stringify(amount)}`);
  return amount.split('.')[1]?.length ?? 0;
}

/** `amount` in units of 10^-scale. */
function scaled(amount: string, scale: number): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
}

function unscaled(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/** Cents at least, more where the client gave more (three-decimal currencies). */
const scaleOf = (amounts: string[]) => Math.max(2, ...amounts.map(decimals));

/** A line's value: quantity × unit value. */
export function lineValue(line: Pick<CustomsLine, 'quantity' | 'unit_value'>): DocumentMoney {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError(`not a quantity: ${line.quantity}`);
  const scale = scaleOf([line.unit_value.amount]);
  return { amount: unscaled(scaled(line.unit_value.amount, scale) * BigInt(line.quantity), scale), currency: line.unit_value.currency };
}

/**
 * The declared value of all lines, one total per currency in the order the currencies first appear: amounts in two
 * currencies are never added together (the API refuses such a declaration; a form would rather show both).
 */
export function totalValues(lines: Pick<CustomsLine, 'quantity' | 'unit_value'>[]): DocumentMoney[] {
  const values = lines.map(lineValue);
  const currencies = [...new Set(values.map((v) => v.currency))];
  return currencies.map((currency) => {
    const same = values.filter((v) => v.currency === currency).map((v) => v.amount);
    const scale = scaleOf(same);
    return { amount: unscaled(same.reduce((sum, a) => sum + scaled(a, scale), 0n), scale), currency };
  });
}

export const moneyText = (m: DocumentMoney) => `${m.amount} ${m.currency}`;

const kgPer = { kg: 1, g: 0.001, lb: 0.45359237, oz: 0.028349523125 } as const;

export const kilograms = (w: DocumentWeight) => w.value * kgPer[w.unit];

/** What a line's units weigh together, in kilograms. */
export const lineKilograms = (line: CustomsLine) => kilograms(line.weight) * line.quantity;

export const netKilograms = (lines: CustomsLine[]) => lines.reduce((sum, l) => sum + lineKilograms(l), 0);

export const kgText = (kg: number) => `${kg.toFixed(3)} kg`;

/** Pounds and ounces, as USPS forms give weights (IMM 123; PS Form 2976-R blocks 3–5). */
export function lbOzText(kg: number): string {
  const tenthsOfOunces = Math.round((kg / kgPer.oz) * 10);
  const pounds = Math.floor(tenthsOfOunces / 160);
  const ounces = (tenthsOfOunces - pounds * 160) / 10;
  return `${pounds} lb ${ounces.toFixed(1)} oz`;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** A country's English name in capitals, as the UPU asks destinations to be written; unknown codes as given. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  return /^[A-Z]{2}$/.test(upper) ? regionNames.of(upper)!.toUpperCase() : upper;
}

/** An address as the lines a form prints, ending with the country's name. */
export function addressLines(a: DocumentAddress): string[] {
  const place = [a.city, a.state, a.zip].filter((p) => p && p.trim()).join(' ');
  return [a.name, a.company, a.street1, a.street2, place, countryName(a.country)].filter((l): l is string => Boolean(l && l.trim()));
}

/**
 * Box 10 of the CN 22 and CN 23, "category of item", in the UPU forms' own words (UPU CN 23 as reproduced in OECD,
 * "Misuse of Small Parcels for Trade in Counterfeit Goods", 2018, Annex A). Merchandise is the UPU's sale of goods.
 */
export const postalCategories: { type: ContentsType; label: string }[] = [
  { type: 'gift', label: 'Gift' },
  { type: 'documents', label: 'Documents' },
  { type: 'sample', label: 'Commercial sample' },
  { type: 'returned_goods', label: 'Returned goods' },
  { type: 'merchandise', label: 'Sale of goods' },
  { type: 'other', label: 'Other' },
];

/**
 * An invoice's reason for export, in the words of UPS's list (Sale, Gift, Sample, Return, Repair, Inter-Company
 * Data, Other — UPS commercial invoice help index); documents and anything else are Other with what they are.
 */
export function reasonForExport(c: CustomsDeclaration): string {
  const reasons: Partial<Record<ContentsType, string>> = { merchandise: 'Sale', gift: 'Gift', sample: 'Sample', returned_goods: 'Return' };
  return reasons[c.contents_type] ?? `Other: ${c.contents_type === 'documents' ? 'documents' : (c.contents_explanation ?? 'other')}`;
}

/** The US export filing the shipment carries: the AES ITN when one was filed, otherwise the exemption cited. */
export function exportFiling(c: CustomsDeclaration): string | undefined {
  if (c.aes_itn) return `AES ITN: ${c.aes_itn}`;
  return c.eel_pfc;
}

/** The declaration's words for the non-delivery choice (PS Form 2976-A, sender's instructions in case of non-delivery). */
export const nonDeliveryChoices = [
  { value: 'return', label: 'Return to sender' },
  { value: 'abandon', label: 'Treat as abandoned' },
] as const;
