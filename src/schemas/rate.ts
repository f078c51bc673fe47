import { Type, type Static } from '@sinclair/typebox';
import { Address } from './address.ts';
import { CarrierIdSchema } from './carrier.ts';
import { CurrencyAmount, CustomsInput } from './customs.ts';
import { ShipDateInput, StringEnum, timestamp } from './common.ts';
import { Surcharge } from './surcharge.ts';
import { ShipmentOptions } from './options.ts';
import { Insurance } from './insurance.ts';
import { Money, Parcel, parcelsField, Weight } from './order.ts';
import { customsInputComplete, ids, parcel, rateShop, rates, shipFrom, shipTo, shipToGuam } from './examples.ts';

export const RateShopRequest = Type.Object(
  {
    order_id: Type.Optional(Type.String({ pattern: '^ord_[0-9a-z]{26}$', description: 'Rate this order (its addresses and parcel); give nothing else but filters' })),
    ship_from: Type.Optional(Type.Ref(Address, { description: 'Where it ships from; or give ship_from_id, or neither for the default location' })),
    ship_from_id: Type.Optional(Type.String({ pattern: '^loc_[0-9a-z]{26}$', description: "One of the account's ship-from locations (GET /ship-from)" })),
    ship_to: Type.Optional(Type.Ref(Address, { description: 'Where it goes' })),
    parcel: Type.Optional(Type.Ref(Parcel, { description: 'The box to ship: at least its weight' })),
    parcels: Type.Optional(parcelsField('The boxes to ship, 1 to 20: the rates are for all of them together')),
    package_id: Type.Optional(
      Type.String({ pattern: '^pkg_[0-9a-z_]{1,60}$', description: "A carrier box or one of your packages; the parcel then gives only its weight. Without it, a parcel without dimensions goes in the account's default package" }),
    ),
    customs: Type.Optional(
      Type.Ref(CustomsInput, { description: 'The customs declaration, with every item complete; required when the parcel crosses a customs border (an order_id brings the order\'s)' }),
    ),
    ship_date: Type.Optional(ShipDateInput),
    options: Type.Optional(
      Type.Ref(ShipmentOptions, {
        description: 'Delivery options: only services that offer every one are quoted, with their charges in `surcharges`; a carrier with none that does is named in `errors` (`option_not_supported`). Buying a rate ships with them',
      }),
    ),
    insurance: Type.Optional(
      Type.Ref(Insurance, {
        description:
          "Insure the whole shipment for this value with the carrier, split evenly among its boxes; each rate includes its cost. To insure boxes one by one, give each its own `insurance` in `parcels` (an order_id brings its boxes' own); sending both is a 400 `validation_failed` pointing at the boxes' (or, with order_id, here)",
      }),
    ),
    carriers: Type.Optional(Type.Array(Type.Ref(CarrierIdSchema), { minItems: 1, uniqueItems: true, description: 'Only these carriers' })),
    services: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, maxItems: 50, uniqueItems: true, description: 'Only these service codes' })),
  },
  {
    $id: 'RateShopRequest',
    title: 'RateShopRequest',
    additionalProperties: false,
    description: 'Either order_id, or ship_to and parcel or parcels (with ship_from, ship_from_id or the default location)',
    examples: [
      { ship_from: shipFrom, ship_to: shipTo, parcel },
      { order_id: ids.order, carriers: ['usps', 'ups'] },
      { order_id: ids.order, ship_date: '2026-11-30' },
      { order_id: ids.order, options: { signature: 'adult', saturday_delivery: true } },
      { order_id: ids.order, insurance: { amount: { amount: '450.00', currency: 'USD' } } },
      { ship_from: shipFrom, ship_to: shipToGuam, parcel, customs: customsInputComplete },
      { ship_from: shipFrom, ship_to: shipTo, parcels: [parcel, { weight: { value: 1.5, unit: 'lb' }, dimensions: { length: 8, width: 6, height: 4, unit: 'in' } }], carriers: ['ups'] },
      { ship_from: shipFrom, ship_to: shipTo, parcels: [parcel, { weight: { value: 6, unit: 'lb' }, dimensions: { length: 16, width: 12, height: 10, unit: 'in' }, insurance: { amount: { amount: '450.00', currency: 'USD' } } }] },
    ],
  },
);
export type RateShopRequest = Static<typeof RateShopRequest>;

export const Rate = Type.Object(
  {
    id: Type.String({ description: 'Buy this rate with POST /shipments within 24 hours', examples: [ids.rates[2]] }),
    object: Type.Literal('rate', { description: 'Always `rate`' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier offering it' }),
    service: Type.String({ description: "The carrier's service code", examples: ['03'] }),
    service_name: Type.String({ description: "The service's name", examples: ['UPS Ground'] }),
    amount: Type.Ref(CurrencyAmount, { description: 'What you pay, in the currency the carrier priced it in (USD for a U.S. account, as a rule)' }),
    list_amount: Type.Ref(CurrencyAmount, { description: "The carrier's published retail price, in the same currency" }),
    amount_usd: Type.Optional(
      Type.Ref(Money, {
        description:
          'Only where the carrier priced in another currency than USD: the same price in US dollars, as the carrier stated it. Postage is charged in USD, so a rate in another currency without it cannot be bought',
        examples: [{ amount: '48.20', currency: 'USD' }],
      }),
    ),
    surcharges: Type.Array(Type.Ref(Surcharge), {
      description:
        'The surcharges the carrier included in `amount`, in its currency: together never more than `amount`, the rest being transport. Empty where the carrier itemized none',
    }),
    billable_weight: Type.Ref(Weight, { description: 'The greater of actual and dimensional weight, rounded up to the pound; for several boxes, the sum of each box\'s' }),
    zone: Type.String({ description: "The carrier's zone between the two addresses, as a number without leading zeros (USPS 1–9; UPS and FedEx 2–8, and their own numbers for Alaska, Hawaii and Puerto Rico such as UPS 44); abroad, the carrier's international zone or USPS price group (FedEx zones are letters, such as A)", examples: ['5'] }),
    delivery_days: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Business days in transit; null where the carrier publishes no transit time for the route (test mode abroad), rather than a guess',
      examples: [3],
    }),
    estimated_delivery_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: "The day the carrier expects to deliver, if shipped on the request's ship_date (today unless given); null with delivery_days",
      examples: ['2026-11-26'],
    }),
    guaranteed: Type.Boolean({ description: 'Whether the carrier guarantees the delivery date' }),
    expires_at: timestamp('Until when it can be bought'),
  },
  { $id: 'Rate', title: 'Rate', description: "A carrier's price for one service, for these addresses and this parcel", additionalProperties: false, examples: [rates[2]] },
);
export type Rate = Static<typeof Rate>;

export const rateErrorCodes = ['carrier_unavailable', 'carrier_timeout', 'address_invalid', 'service_unavailable', 'parcel_too_large', 'insurance_above_limit', 'not_serviced', 'credentials_missing', 'option_not_supported', 'carrier_error'] as const;

export const RateError = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier that gave no rates' }),
    code: StringEnum(rateErrorCodes, { description: 'Why, for a program to branch on' }),
    detail: Type.String({ description: 'Why, for a person to read', examples: ['USPS does not serve ZIP 78701 → 99999: no such ZIP'] }),
  },
  {
    $id: 'RateError',
    title: 'RateError',
    description: 'A carrier that could not rate the request, and why',
    additionalProperties: false,
    examples: [{ carrier: 'usps', code: 'not_serviced', detail: 'USPS does not serve ZIP 78701 → 99999: no such ZIP' }],
  },
);
export type RateError = Static<typeof RateError>;

export const RateShop = Type.Object(
  {
    id: Type.String({ description: "The rate shop's id", examples: [ids.rateShop] }),
    object: Type.Literal('rate_shop', { description: 'Always `rate_shop`' }),
    order_id: Type.Union([Type.String(), Type.Null()], { description: 'The order rated; null when addresses and parcel were given instead' }),
    insurance: Type.Union([Type.Ref(Insurance), Type.Null()], {
      description:
        "The value the rates insure the whole shipment for, as asked in `insurance`; null for none, and where the boxes are insured one by one (`parcels[].insurance`, bound to the rates as the boxes are). Buying a rate insures it so",
    }),
    ship_date: Type.String({ format: 'date', description: "The day the rates are for (YYYY-MM-DD, in the ship-from location's time zone): the one asked for, else today. Buying a rate ships on it", examples: ['2026-11-23'] }),
    options: Type.Ref(ShipmentOptions, { description: 'The delivery options the rates are for; `{}` for none. Buying a rate ships with them' }),
    rates: Type.Array(Type.Ref(Rate), { description: 'Cheapest first' }),
    errors: Type.Array(Type.Ref(RateError), { description: 'One entry per carrier that could not rate; the others still answer' }),
    created_at: timestamp('When the carriers were asked'),
  },
  { $id: 'RateShop', title: 'RateShop', description: 'Every rate the carriers offered for one shipment, cheapest first', additionalProperties: false, examples: [rateShop] },
);
export type RateShop = Static<typeof RateShop>;
