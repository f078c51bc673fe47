import { Type, type Static } from '@sinclair/typebox';
import { Address } from './address.ts';
import { CarrierIdSchema } from './carrier.ts';
import { StringEnum, Timestamp } from './common.ts';
import { Money, Parcel, Weight } from './order.ts';

export const RateShopRequest = Type.Object(
  {
    order_id: Type.Optional(Type.String({ pattern: '^ord_[0-9a-z]{26}$', description: 'Rate this order (its addresses and parcel); give nothing else but filters' })),
    ship_from: Type.Optional(Type.Ref(Address)),
    ship_from_id: Type.Optional(Type.String({ pattern: '^loc_[0-9a-z]{26}$' })),
    ship_to: Type.Optional(Type.Ref(Address)),
    parcel: Type.Optional(Type.Ref(Parcel)),
    package_id: Type.Optional(
      Type.String({ pattern: '^pkg_[0-9a-z_]{1,60}$', description: "A carrier box or one of your packages; the parcel then gives only its weight. Without it, a parcel without dimensions goes in the account's default package" }),
    ),
    carriers: Type.Optional(Type.Array(Type.Ref(CarrierIdSchema), { minItems: 1, uniqueItems: true, description: 'Only these carriers' })),
    services: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, maxItems: 50, uniqueItems: true, description: 'Only these service codes' })),
  },
  {
    $id: 'RateShopRequest',
    title: 'RateShopRequest',
    additionalProperties: false,
    description: 'Either order_id, or ship_to and parcel (with ship_from, ship_from_id or the default location)',
    examples: [
      {
        ship_from: { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
        ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
        parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
      },
      { order_id: 'ord_01jf3k4m5n6p7q8r9s0t1v2w3x', carriers: ['usps'] },
    ],
  },
);
export type RateShopRequest = Static<typeof RateShopRequest>;

export const Rate = Type.Object(
  {
    id: Type.String({ description: 'Buy this rate with POST /shipments within 24 hours', examples: ['rate_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('rate'),
    carrier: Type.Ref(CarrierIdSchema),
    service: Type.String({ description: "The carrier's service code", examples: ['03'] }),
    service_name: Type.String({ examples: ['UPS Ground'] }),
    amount: Type.Ref(Money, { description: 'What you pay' }),
    list_amount: Type.Ref(Money, { description: "The carrier's published retail price" }),
    billable_weight: Type.Ref(Weight, { description: 'The greater of actual and dimensional weight, rounded up to the pound' }),
    zone: Type.String({ description: "The carrier's zone between the two addresses, as a number without leading zeros (USPS 1–9; UPS and FedEx 2–8, and their own numbers for Alaska, Hawaii and Puerto Rico such as UPS 44)", examples: ['5'] }),
    delivery_days: Type.Integer({ minimum: 0, description: 'Business days in transit' }),
    estimated_delivery_date: Type.String({ format: 'date', examples: ['2026-11-26'] }),
    guaranteed: Type.Boolean({ description: 'Whether the carrier guarantees the delivery date' }),
    expires_at: Timestamp,
  },
  { $id: 'Rate', title: 'Rate', additionalProperties: false },
);
export type Rate = Static<typeof Rate>;

export const rateErrorCodes = ['carrier_unavailable', 'carrier_timeout', 'address_invalid', 'service_unavailable', 'parcel_too_large', 'not_serviced', 'credentials_missing', 'carrier_error'] as const;

export const RateError = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema),
    code: StringEnum(rateErrorCodes),
    detail: Type.String(),
  },
  { $id: 'RateError', title: 'RateError', additionalProperties: false },
);
export type RateError = Static<typeof RateError>;

export const RateShop = Type.Object(
  {
    id: Type.String({ examples: ['rsh_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('rate_shop'),
    order_id: Type.Union([Type.String(), Type.Null()]),
    rates: Type.Array(Type.Ref(Rate), { description: 'Cheapest first' }),
    errors: Type.Array(Type.Ref(RateError), { description: 'One entry per carrier that could not rate; the others still answer' }),
    created_at: Timestamp,
  },
  { $id: 'RateShop', title: 'RateShop', additionalProperties: false },
);
export type RateShop = Static<typeof RateShop>;
