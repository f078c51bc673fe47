import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.ts';
import { Weight } from './weight.ts';
import { customs, customsInput } from './examples.ts';

export const contentsTypes = ['merchandise', 'gift', 'documents', 'returned_goods', 'sample', 'other'] as const;
export type ContentsType = (typeof contentsTypes)[number];

/** $2,500 per Schedule B number: above it a US export needs EEI filed and its ITN on the declaration (15 CFR 30.37(a)). */
export const eeiThresholdUsd = 2500;

export const CurrencyAmount = Type.Object(
  {
    amount: Type.String({
      pattern: '^[0-9]{1,9}(\\.[0-9]{1,3})?$',
      description: "Decimal string, with no more decimals than the currency has (2 for USD and EUR, none for JPY, 3 for KWD)",
      examples: ['12.50'],
    }),
    currency: Type.String({ minLength: 1, maxLength: 10, description: 'ISO 4217 currency code', examples: ['USD', 'EUR'] }),
  },
  {
    $id: 'CurrencyAmount',
    title: 'CurrencyAmount',
    description: 'An amount in any ISO 4217 currency, in the form of Money',
    additionalProperties: false,
    examples: [{ amount: '12.50', currency: 'USD' }, { amount: '1500', currency: 'JPY' }],
  },
);
export type CurrencyAmount = Static<typeof CurrencyAmount>;

const description = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'What the item is, specifically enough for a customs officer to classify it ("Stoneware coffee mug", not "gift" or "merchandise")',
  examples: ['Stoneware coffee mug'],
});
const quantity = Type.Integer({ minimum: 1, maximum: 100_000, description: 'How many are in the parcel' });
const hsTariffNumber = Type.String({
  minLength: 1,
  maxLength: 20,
  description: 'Harmonized System tariff number of 6 to 10 digits (for a US export, its Schedule B number); dots and spaces are allowed and removed',
  examples: ['691200', '6912.00.4810'],
});
const originCountry = Type.String({ minLength: 1, maxLength: 10, description: 'ISO 3166-1 alpha-2 code of the country where the item was made', examples: ['US'] });
const parcelIndex = Type.Integer({
  minimum: 0,
  maximum: 19,
  description:
    'Which box holds this line, by its place in `parcels` (0 for the first). Only needed where a carrier draws a customs form for each box (USPS abroad, a label per box): name every line\'s box or none. UPS and FedEx declare several boxes together',
  examples: [0],
});
const sku = Type.String({ minLength: 1, maxLength: 100, description: "Your stock-keeping unit; on an order, the line item with this sku gives what the customs item leaves out", examples: ['MUG-1'] });

export const CustomsItem = Type.Object(
  {
    description,
    quantity,
    unit_value: Type.Ref(CurrencyAmount, { description: 'The value of one, as declared to customs; 0 only for documents of no commercial value' }),
    weight: Type.Ref(Weight, { description: 'The weight of one' }),
    hs_tariff_number: hsTariffNumber,
    origin_country: originCountry,
    sku: Type.Optional(sku),
    parcel_index: Type.Optional(parcelIndex),
  },
  { $id: 'CustomsItem', title: 'CustomsItem', description: 'One line of a customs declaration', additionalProperties: false, examples: [customs.items[0]] },
);
export type CustomsItem = Static<typeof CustomsItem>;

export const CustomsItemInput = Type.Object(
  {
    description: Type.Optional(description),
    quantity: Type.Optional(quantity),
    unit_value: Type.Optional(Type.Ref(CurrencyAmount, { description: "The value of one; on an order, the line item's unit_price when left out" })),
    weight: Type.Optional(Type.Ref(Weight, { description: "The weight of one; on an order, the line item's weight when left out" })),
    hs_tariff_number: hsTariffNumber,
    origin_country: originCountry,
    sku: Type.Optional(sku),
    parcel_index: Type.Optional(parcelIndex),
  },
  {
    $id: 'CustomsItemInput',
    title: 'CustomsItemInput',
    description:
      "One line of a customs declaration as sent. On an order, an item whose sku is one of the order's line items takes that line's name (as description), quantity, unit_price (as unit_value) and weight for the fields it leaves out; any other item gives every field",
    additionalProperties: false,
    examples: customsInput.items,
  },
);
export type CustomsItemInput = Static<typeof CustomsItemInput>;

const header = {
  contents_type: StringEnum(contentsTypes, { description: 'What the parcel holds; `other` needs `contents_explanation`' }),
  contents_explanation: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'What the contents are, when `contents_type` is `other`', examples: ['Replacement parts under warranty'] })),
  non_delivery: StringEnum(['return', 'abandon'], { description: 'What the carrier does with a parcel it cannot deliver: send it back (at your cost) or abandon it' }),
  incoterm: Type.Optional(StringEnum(['DAP', 'DDP'], { default: 'DAP', description: 'Who pays duties and taxes: DAP the recipient, DDP you, the shipper. DAP when left out' })),
  eel_pfc: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'The US export filing exemption that applies, cited as in the Foreign Trade Regulations: NOEEI 30.37(a) when every Schedule B number is worth $2,500 or less, NOEEI 30.36 to Canada',
      examples: ['NOEEI 30.37(a)'],
    }),
  ),
  aes_itn: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'The ITN that AESDirect gave for the EEI filed: X and 14 digits. Required when the items of one Schedule B number are worth over $2,500 and no exemption applies (15 CFR 30.37(a)), or the goods need an export license',
      examples: ['X20261123123456'],
    }),
  ),
  invoice_number: Type.Optional(Type.String({ minLength: 1, maxLength: 35, pattern: '\\S', description: 'Your commercial invoice number', examples: ['INV-1042'] })),
  signer: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'The person who certifies the declaration', examples: ['Ada Lovelace'] }),
  certify: Type.Literal(true, { description: 'Always true: the signer certifies that the declaration is correct and the parcel holds nothing dangerous or forbidden' }),
};

export const Customs = Type.Object(
  { ...header, items: Type.Array(Type.Ref(CustomsItem), { minItems: 1, maxItems: 100, description: 'What the parcel holds, one line per kind of item' }) },
  {
    $id: 'Customs',
    title: 'Customs',
    description: 'The customs declaration of a parcel that crosses a customs border, as stored: every item complete, codes in upper case, HS numbers as digits',
    additionalProperties: false,
    examples: [customs],
  },
);
export type Customs = Static<typeof Customs>;

export const CustomsInput = Type.Object(
  {
    ...header,
    items: Type.Optional(
      Type.Array(Type.Ref(CustomsItemInput), {
        minItems: 1,
        maxItems: 100,
        description: "What the parcel holds. Required on a rate request; on an order, each item may name a line item by sku and give only what the line item lacks (hs_tariff_number, origin_country)",
      }),
    ),
  },
  {
    $id: 'CustomsInput',
    title: 'CustomsInput',
    description:
      'A customs declaration, required when the parcel crosses a customs border: to another country, or where USPS asks for one to or from a US territory, freely associated state or military post office',
    additionalProperties: false,
    examples: [customsInput],
  },
);
export type CustomsInput = Static<typeof CustomsInput>;
