import { Type, type Static } from '@sinclair/typebox';
import { Address } from './address.ts';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, Timestamp } from './common.ts';

export const Money = Type.Object(
  {
    amount: Type.String({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$', description: 'Decimal string, at most 2 decimals', examples: ['12.34'] }),
    currency: Type.Literal('USD'),
  },
  { $id: 'Money', title: 'Money', additionalProperties: false },
);
export type Money = Static<typeof Money>;

export const Weight = Type.Object(
  {
    value: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, examples: [2.5] }),
    unit: StringEnum(['lb', 'oz', 'kg', 'g']),
  },
  { $id: 'Weight', title: 'Weight', additionalProperties: false, description: 'At most 150 lb' },
);
export type Weight = Static<typeof Weight>;

export const Dimensions = Type.Object(
  {
    length: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    unit: StringEnum(['in', 'cm']),
  },
  { $id: 'Dimensions', title: 'Dimensions', additionalProperties: false, description: 'Length + girth at most 165 in' },
);
export type Dimensions = Static<typeof Dimensions>;

export const Parcel = Type.Object(
  { weight: Type.Ref(Weight), dimensions: Type.Optional(Type.Ref(Dimensions)) },
  { $id: 'Parcel', title: 'Parcel', additionalProperties: false, examples: [{ weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } }] },
);
export type Parcel = Static<typeof Parcel>;

export const LineItem = Type.Object(
  {
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    quantity: Type.Integer({ minimum: 1, maximum: 100_000 }),
    unit_price: Type.Ref(Money),
    weight: Type.Optional(Type.Ref(Weight)),
  },
  { $id: 'LineItem', title: 'LineItem', additionalProperties: false },
);

export const RequestedService = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema),
    service: Type.String({ minLength: 1, maxLength: 50, description: "The carrier's service code, as in GET /carriers", examples: ['03'] }),
  },
  { $id: 'RequestedService', title: 'RequestedService', additionalProperties: false },
);
export type RequestedService = Static<typeof RequestedService>;

// A record's key schema becomes a pattern, which drops its bounds: propertyNames states them.
export const Metadata = Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
  $id: 'Metadata',
  title: 'Metadata',
  maxProperties: 20,
  propertyNames: { minLength: 1, maxLength: 40 },
  description: 'Up to 20 string keys (40 characters) and values (500 characters) of your own',
  examples: [{ shop_order: '1042' }],
});

export const OrderStatus = StringEnum(['incomplete', 'shipped', 'delivered', 'cancelled'], { $id: 'OrderStatus', title: 'OrderStatus' });
export type OrderStatus = Static<typeof OrderStatus>;

const shipFromId = Type.String({ pattern: '^loc_[0-9a-z]{26}$', description: 'One of the account\'s ship-from locations (GET /ship-from)' });
const orderNumber = Type.String({ minLength: 1, maxLength: 100, description: 'Your own order number' });
const notes = Type.String({ maxLength: 2000 });
const packageId = Type.String({ pattern: '^pkg_[0-9a-z_]{1,60}$', description: "A carrier box or one of your packages (GET /packages); the parcel then gives only its weight. Without it, a parcel without dimensions goes in the account's default package, whose id the order stores" });

export const OrderCreate = Type.Object(
  {
    order_number: Type.Optional(orderNumber),
    ship_to: Type.Ref(Address),
    ship_from: Type.Optional(Type.Ref(Address)),
    ship_from_id: Type.Optional(shipFromId),
    items: Type.Optional(Type.Array(Type.Ref(LineItem), { maxItems: 500 })),
    parcel: Type.Optional(Type.Ref(Parcel)),
    package_id: Type.Optional(packageId),
    requested_service: Type.Optional(Type.Ref(RequestedService)),
    notes: Type.Optional(notes),
    metadata: Type.Optional(Type.Ref(Metadata)),
  },
  {
    $id: 'OrderCreate',
    title: 'OrderCreate',
    additionalProperties: false,
    description: 'Give ship_from or ship_from_id; with neither, the account\'s default ship-from location is used',
    examples: [
      {
        order_number: '1042',
        ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
        items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
        parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
      },
    ],
  },
);
export type OrderCreate = Static<typeof OrderCreate>;

export const OrderUpdate = Type.Object(
  {
    order_number: Type.Optional(Type.Union([orderNumber, Type.Null()])),
    ship_to: Type.Optional(Type.Ref(Address)),
    ship_from: Type.Optional(Type.Ref(Address)),
    ship_from_id: Type.Optional(shipFromId),
    items: Type.Optional(Type.Array(Type.Ref(LineItem), { maxItems: 500 })),
    parcel: Type.Optional(Type.Union([Type.Ref(Parcel), Type.Null()])),
    package_id: Type.Optional(Type.Union([packageId, Type.Null()])),
    requested_service: Type.Optional(Type.Union([Type.Ref(RequestedService), Type.Null()])),
    notes: Type.Optional(Type.Union([notes, Type.Null()])),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 500 }), Type.Null()]), {
        propertyNames: { minLength: 1, maxLength: 40 },
        description: 'Merged into the order\'s metadata; a null value removes that key',
      }),
    ),
  },
  {
    $id: 'OrderUpdate',
    title: 'OrderUpdate',
    additionalProperties: false,
    minProperties: 1,
    description: 'Only the fields sent change; null clears an optional field',
    examples: [{ parcel: { weight: { value: 3, unit: 'lb' } }, metadata: { gift: 'yes' } }],
  },
);
export type OrderUpdate = Static<typeof OrderUpdate>;

export const Order = Type.Object(
  {
    id: Type.String({ examples: ['ord_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('order'),
    status: Type.Ref(OrderStatus),
    order_number: Type.Union([Type.String(), Type.Null()]),
    ship_to: Type.Ref(Address),
    ship_from: Type.Ref(Address, { description: 'The address shipped from, resolved from ship_from_id when one was given' }),
    ship_from_id: Type.Union([Type.String(), Type.Null()]),
    items: Type.Array(Type.Ref(LineItem)),
    parcel: Type.Union([Type.Ref(Parcel), Type.Null()]),
    package_id: Type.Union([Type.String(), Type.Null()]),
    requested_service: Type.Union([Type.Ref(RequestedService), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Ref(Metadata),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'The active shipment, once a label is bought' }),
    mode: StringEnum(['test', 'live']),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Order', title: 'Order', additionalProperties: false },
);
export type Order = Static<typeof Order>;

export const OrderList = ListOf(Type.Ref(Order), 'OrderList', 'Orders, newest first');

export const OrderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
