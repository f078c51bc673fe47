import { createRequire } from 'node:module';
import type { FieldError } from '../../kernel/errors.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import { eeiThresholdUsd, type Customs } from '../../schemas/customs.ts';
import type { Parcel } from '../../schemas/order.ts';
import { countryOf } from '../addresses/address-rules.ts';
import { isCountryCode } from '../addresses/countries.ts';
import { weightInLb } from '../orders/parcels.ts';
import { dollars } from '../../kernel/dollars.ts';

const require = createRequire(import.meta.url);
const currencyCodes = require('currency-codes') as { code(code: string): { code: string; digits: number; countries: string[] } | undefined };

const field = (pointer: string, detail: string): FieldError => ({ in: 'body', pointer, detail });

/**
 * An ISO 4217 currency (currency-codes, the ISO list of 2024-06-25) and its minor units; not the codes ISO lists for
 * things that are not money (gold, bond units, testing, "no currency"), whose countries it writes as Zz….
 */
function currency(code: string): { digits: number } | undefined {
  const found = currencyCodes.code(code);
  return found && !found.countries.some((c) => /^zz/i.test(c)) ? found : undefined;
}

/**
 * Words that say nothing of what an item is. US exports must describe each commodity in enough detail to check its
 * Schedule B number (15 CFR 30.6(a)(12)), and carriers hold parcels declared as these.
 */
const vagueDescriptions = new Set([
  'gift', 'gifts', 'present', 'sample', 'samples', 'merchandise', 'goods', 'item', 'items', 'product', 'products', 'stuff', 'misc', 'miscellaneous',
  'various', 'general', 'other', 'parts', 'accessories', 'personal items', 'personal effects', 'package', 'parcel', 'box', 'n/a', 'na', 'none',
]);

const itnPattern = /^X\d{14}$/;
/** An exemption as the Foreign Trade Regulations cite it: NOEEI, then the section and its paragraphs. */
const exemptionPattern = /^NOEEI 30\.\d{1,2}(\([a-z0-9]{1,4}\))*$/;
/** The exemption for values of $2,500 or less per Schedule B number (15 CFR 30.37(a)). */
const lowValueExemption = 'NOEEI 30.37(a)';

/** Cents of an amount string in a currency of `digits` minor units, kept exact as integers. */
function minorUnits(amount: string, digits: number): number {
  const [whole, fraction = ''] = amount.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}


function itemErrors(customs: Customs, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const first = customs.items[0]!.unit_value.currency;
  customs.items.forEach((item, i) => {
    const at = `${pointer}/items/${i}`;
    if (vagueDescriptions.has(item.description.toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, ''))) {
      errors.push(field(`${at}/description`, `"${item.description}" does not say what the item is; customs need words such as "cotton T-shirt" or "stoneware mug"`));
    }
    if (!/^\d{6,10}$/.test(item.hs_tariff_number)) {
      errors.push(field(`${at}/hs_tariff_number`, `"${item.hs_tariff_number}" is not an HS tariff number: it has 6 to 10 digits, such as 691200 or 6912.00.4810`));
    }
    if (!isCountryCode(item.origin_country)) {
      errors.push(field(`${at}/origin_country`, `"${item.origin_country}" is not an ISO 3166-1 alpha-2 country code, such as US or CN`));
    }
    const known = currency(item.unit_value.currency);
    const decimals = item.unit_value.amount.split('.')[1]?.length ?? 0;
    if (!known) errors.push(field(`${at}/unit_value/currency`, `"${item.unit_value.currency}" is not an ISO 4217 currency code, such as USD, EUR or CAD`));
    else if (item.unit_value.currency !== first) {
      errors.push(field(`${at}/unit_value/currency`, `is ${item.unit_value.currency}, but the first item is in ${first}: a declaration is in one currency`));
    } else if (decimals > known.digits) {
      errors.push(field(`${at}/unit_value/amount`, `has ${decimals} decimals; ${item.unit_value.currency} has ${known.digits === 0 ? 'none' : known.digits}`));
    }
    if (Number(item.unit_value.amount) === 0 && customs.contents_type !== 'documents') {
      errors.push(field(`${at}/unit_value/amount`, 'must be more than 0: only documents may be declared without a value'));
    }
  });
  return errors;
}

/** Total weight of the items, in pounds. */
export const itemsWeightLb = (customs: Customs) => customs.items.reduce((sum, item) => sum + item.quantity * weightInLb(item.weight), 0);

const lb = (value: number) => `${Math.round(value * 100) / 100} lb`;

/**
 * Whether a shipment to this address is one the Foreign Trade Regulations ask EEI of: an export abroad, or within the
 * US a shipment to Puerto Rico or the U.S. Virgin Islands — "EEI is not required for shipments from the United
 * States or Puerto Rico to the U.S. possessions, except to the U.S. Virgin Islands" (19 CFR 122.79(a)), and shipments
 * between the United States and Puerto Rico need it (15 CFR 30.2(a)(1)(iv)); the Census Bureau kept both
 * requirements (87 FR 6440, 2022-02-04).
 */
export function needsExportFiling(to: AnyAddress): boolean {
  return countryOf(to) !== 'US' || eeiTerritories.has((to.state ?? '').trim().toUpperCase());
}
const eeiTerritories = new Set(['PR', 'VI']);

/**
 * The US export filing: an ITN when the items of one Schedule B number are worth over $2,500 (15 CFR 30.37(a)),
 * except to Canada, where 15 CFR 30.36 exempts all but licensed goods. Applied where needsExportFiling says; a
 * declaration in another currency than USD cannot be measured against the threshold without an exchange rate, so it
 * must say itself which applies.
 */
function exportFilingErrors(customs: Customs, to: AnyAddress, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  if (customs.aes_itn !== undefined && !itnPattern.test(customs.aes_itn)) {
    errors.push(field(`${pointer}/aes_itn`, `"${customs.aes_itn}" is not an ITN: it is X and 14 digits, such as X20261123123456`));
  }
  if (customs.eel_pfc !== undefined && !exemptionPattern.test(customs.eel_pfc)) {
    errors.push(field(`${pointer}/eel_pfc`, `"${customs.eel_pfc}" is not an exemption as the Foreign Trade Regulations cite it, such as NOEEI 30.37(a) or NOEEI 30.36; an ITN goes in aes_itn`));
  }
  if (customs.eel_pfc !== undefined && customs.aes_itn !== undefined) {
    errors.push(field(`${pointer}/eel_pfc`, 'give an exemption (eel_pfc) or the ITN of the EEI filed (aes_itn), not both'));
  }
  const country = countryOf(to);
  if (!needsExportFiling(to) || errors.length > 0) return errors;
  const currencyCode = customs.items[0]!.unit_value.currency;
  if (currencyCode !== 'USD') {
    if (country !== 'CA' && customs.eel_pfc === undefined && customs.aes_itn === undefined) {
      errors.push(
        field(
          `${pointer}/eel_pfc`,
          `is required of a declaration in ${currencyCode}: US exports need EEI filed when the items of one Schedule B number are worth over $${eeiThresholdUsd.toLocaleString('en-US')} (15 CFR 30.37(a)), which shipd cannot measure in ${currencyCode}; cite ${lowValueExemption} if none is, else give the ITN in aes_itn`,
        ),
      );
    }
    return errors;
  }
  const byNumber = new Map<string, number>();
  for (const item of customs.items) byNumber.set(item.hs_tariff_number, (byNumber.get(item.hs_tariff_number) ?? 0) + item.quantity * minorUnits(item.unit_value.amount, 2));
  const over = [...byNumber].filter(([, cents]) => cents > eeiThresholdUsd * 100);
  if (over.length === 0) return errors;
  const [hs, cents] = over[0]!;
  const worth = `the items of HS ${hs} are worth ${dollars(cents)}, over the $${eeiThresholdUsd.toLocaleString('en-US')} per Schedule B number`;
  if (customs.eel_pfc === lowValueExemption) {
    errors.push(field(`${pointer}/eel_pfc`, `cites ${lowValueExemption}, but ${worth} that it exempts${country === 'CA' ? '; to Canada cite NOEEI 30.36' : ''}`));
  } else if (country !== 'CA' && customs.eel_pfc === undefined && customs.aes_itn === undefined) {
    errors.push(field(`${pointer}/aes_itn`, `is required: ${worth} up to which US exports need no EEI (15 CFR 30.37(a)); file EEI in AESDirect and give its ITN, or cite the exemption that applies in eel_pfc`));
  }
  return errors;
}

/**
 * The boxes the items name (parcel_index): each one of the shipment's, and every line naming its box or none, so a
 * declaration is never split partly by the client and partly by a guess.
 */
function boxNamingErrors(customs: Customs, boxes: number, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  const named = customs.items.filter((i) => i.parcel_index !== undefined).length;
  customs.items.forEach((item, i) => {
    if (item.parcel_index !== undefined && item.parcel_index >= boxes) {
      errors.push(field(`${pointer}/items/${i}/parcel_index`, `names box ${item.parcel_index}, but the shipment has ${boxes === 1 ? 'one box (0)' : `${boxes} boxes (0 to ${boxes - 1})`}`));
    } else if (item.parcel_index === undefined && named > 0) {
      errors.push(field(`${pointer}/items/${i}/parcel_index`, "is required once another line names its box: name every line's box or none"));
    }
  });
  return errors;
}

export interface DeclarationContext {
  to: AnyAddress;
  /** The parcel the items are packed in, when it is known. */
  parcel?: Parcel | null;
  /** Every box, when the shipment has several: the items are checked against them together, or box by box where they name their box. */
  parcels?: readonly Parcel[] | null;
  /** Where a parcel too light for its items is pointed at: the parcel when it is what changed, else the items. */
  weightPointer?: string;
}

/**
 * The rules customs and the carriers apply to a declaration, each fault at its field: specific descriptions, HS
 * numbers and origin countries of the right form, one ISO 4217 currency, values above 0 except for documents, an
 * explanation for `other`, items no heavier than their parcel, and the US export filing rules.
 */
export function declarationErrors(customs: Customs, context: DeclarationContext, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
  if (customs.contents_type === 'other' && customs.contents_explanation === undefined) {
    errors.push(field(`${pointer}/contents_explanation`, 'is required when contents_type is "other": say what the parcel holds'));
  }
  errors.push(...itemErrors(customs, pointer));
  const boxes = context.parcels && context.parcels.length > 1 ? context.parcels : undefined;
  errors.push(...boxNamingErrors(customs, boxes?.length ?? 1, pointer));
  if (boxes && errors.length === 0 && customs.items.every((i) => i.parcel_index !== undefined)) {
    // Each box's own form lists what it holds: its lines weigh no more than the box.
    boxes.forEach((box, b) => {
      const items = itemsWeightLb({ ...customs, items: customs.items.filter((i) => i.parcel_index === b) });
      const parcel = weightInLb(box.weight);
      if (items > parcel + 0.001) errors.push(field(context.weightPointer ?? `${pointer}/items`, `the customs items of box ${b} (parcel_index ${b}) weigh ${lb(items)}, more than the box's ${lb(parcel)}`));
    });
  } else if (boxes || context.parcel) {
    const items = itemsWeightLb(customs);
    const parcel = boxes ? boxes.reduce((sum, box) => sum + weightInLb(box.weight), 0) : weightInLb(context.parcel!.weight);
    const what = boxes ? `the ${boxes.length} boxes' ${lb(parcel)} together` : `the parcel's ${lb(parcel)}`;
    // A thousandth of a pound absorbs the rounding of unit conversions, not a real excess.
    if (items > parcel + 0.001) {
      errors.push(field(context.weightPointer ?? `${pointer}/items`, `the customs items weigh ${lb(items)} in all, more than ${what}, which includes them and their packing`));
    }
  }
  if (errors.every((e) => !e.pointer.includes('/unit_value/'))) errors.push(...exportFilingErrors(customs, context.to, pointer));
  return errors;
}
