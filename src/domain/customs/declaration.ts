import type { FieldError } from '../../kernel/errors.ts';
import type { Customs, CustomsInput, CustomsItem, CustomsItemInput } from '../../schemas/customs.ts';
import type { LineItem } from '../../schemas/order.ts';

const field = (pointer: string, detail: string): FieldError => ({ in: 'body', pointer, detail });

/** HS numbers are written with dots and spaces ("6912.00.4810"); customs and carriers take the digits. */
export const hsDigits = (hs: string) => hs.replace(/[.\s-]/g, '');

/** An ITN as filers copy it from AESDirect, with or without its "AES" prefix, written as X and 14 digits. */
const itn = (text: string) => text.trim().toUpperCase().replace(/^AES\s*/, '');

/** An FTR citation with its words in upper case and its paragraph letters in lower case: "NOEEI 30.37(a)". */
const citation = (text: string) => text.trim().replace(/\s+/g, ' ').replace(/^noeei/i, 'NOEEI').replace(/\(([A-Za-z0-9]+)\)/g, (_, p: string) => `(${p.toLowerCase()})`);

type Filled = Partial<CustomsItem>;

/** One item of the declaration: as sent, its gaps filled from the order's line item of the same sku. */
function fillItem(item: CustomsItemInput, lines: LineItem[] | undefined, pointer: string, errors: FieldError[]): CustomsItem | undefined {
  const line = item.sku !== undefined ? lines?.find((l) => l.sku === item.sku) : undefined;
  const filled: Filled = {
    description: item.description ?? line?.name,
    quantity: item.quantity ?? line?.quantity,
    unit_value: item.unit_value ?? line?.unit_price,
    weight: item.weight ?? line?.weight,
  };
  let complete = true;
  for (const name of ['description', 'quantity', 'unit_value', 'weight'] as const) {
    if (filled[name] !== undefined) continue;
    complete = false;
    let why = '';
    if (line) why = `: line item "${item.sku}" has no ${name} to take it from`;
    else if (lines && item.sku !== undefined) why = `: no line item of the order has sku "${item.sku}" to take it from`;
    else if (lines) why = ': give it, or name a line item of the order by its sku to take it from';
    errors.push(field(`${pointer}/${name}`, `is required${why}`));
  }
  if (!complete) return undefined;
  return {
    description: filled.description!.trim(),
    quantity: filled.quantity!,
    unit_value: { amount: filled.unit_value!.amount, currency: filled.unit_value!.currency.trim().toUpperCase() },
    weight: filled.weight!,
    hs_tariff_number: hsDigits(item.hs_tariff_number),
    origin_country: item.origin_country.trim().toUpperCase(),
    ...(item.sku !== undefined && { sku: item.sku }),
    ...(item.parcel_index !== undefined && { parcel_index: item.parcel_index }),
  };
}

/**
 * The declaration as shipd keeps it: every item complete, codes in upper case, HS numbers as digits, DAP unless DDP
 * was asked. `lines` are the order's line items, which an item names by its sku to take what it leaves out; a rate
 * request without an order has none, so its items must be complete. What cannot be built goes to `errors`.
 */
export function buildDeclaration(input: CustomsInput, lines: LineItem[] | undefined, pointer: string, errors: FieldError[]): Customs | undefined {
  if (!input.items) {
    errors.push(
      field(
        `${pointer}/items`,
        !lines
          ? 'is required: a rate request has no line items to build the declaration from'
          : lines.length === 0
            ? 'is required: the order has no line items to build the declaration from'
            : "is required: customs needs each item's hs_tariff_number and origin_country, which line items do not carry; " +
              'send one item per line item, as { "sku", "hs_tariff_number", "origin_country" }, and the rest comes from the line item',
      ),
    );
    return undefined;
  }
  const items = input.items.map((item, i) => fillItem(item, lines, `${pointer}/items/${i}`, errors));
  if (items.some((item) => item === undefined)) return undefined;
  return {
    contents_type: input.contents_type,
    ...(input.contents_explanation !== undefined && { contents_explanation: input.contents_explanation.trim() }),
    non_delivery: input.non_delivery,
    incoterm: input.incoterm ?? 'DAP',
    ...(input.eel_pfc !== undefined && { eel_pfc: citation(input.eel_pfc) }),
    ...(input.aes_itn !== undefined && { aes_itn: itn(input.aes_itn) }),
    ...(input.invoice_number !== undefined && { invoice_number: input.invoice_number.trim() }),
    signer: input.signer.trim(),
    certify: true,
    items: items as CustomsItem[],
  };
}
