import { Type, type Static } from '@sinclair/typebox';
import { Address } from './address.ts';
import { Weight } from './weight.ts';
import { Customs, CustomsInput } from './customs.ts';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, timestamp } from './common.ts';
import { Insurance } from './insurance.ts';
import { Money } from './money.ts';
import { ids, lineItem, orderCreate, orders, parcel } from './examples.ts';

export { Money } from './money.ts';

// Weight lives on its own so the customs schemas can use it without importing this file, which imports theirs.
export { Weight } from './weight.ts';

export const Dimensions = Type.Object(
  {
    length: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Length in `unit`', examples: [10] }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Width in `unit`', examples: [8] }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Height in `unit`', examples: [4] }),
    unit: StringEnum(['in', 'cm'], { description: 'Inches or centimeters' }),
  },
  { $id: 'Dimensions', title: 'Dimensions', additionalProperties: false, description: 'Length + girth at most 165 in' },
);
export type Dimensions = Static<typeof Dimensions>;

const packageId = Type.String({ pattern: '^pkg_[0-9a-z_]{1,60}$', description: "A carrier box or one of your packages (GET /packages); the parcel then gives only its weight. Without it, a parcel without dimensions goes in the account's default package, whose id the order stores" });

export const Parcel = Type.Object(
  {
    weight: Type.Ref(Weight, { description: 'What it weighs, packaging included' }),
    dimensions: Type.Optional(Type.Ref(Dimensions, { description: "Its outside size; without it, that of the package_id's box or of the account's default package" })),
    package_id: Type.Optional(
      Type.String({
        ...packageId,
        description:
          "This box's own package (GET /packages), in place of the order's or request's `package_id`; the box then gives only its weight. The boxes of one shipment are all in one carrier's box (flat rate, Pak…) or none is",
      }),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 35, pattern: '\\S', description: 'Your own words for this box, such as "2 of 3: mugs", printed on its label', examples: ['Box 1: mugs'] })),
    insurance: Type.Optional(
      Type.Ref(Insurance, {
        description:
          "Insure this box for this value with the carrier (each carrier's limit is per package); a box without it is not insured. Each rate's `insurance` surcharge includes its cost. " +
          "Not together with the request's own `insurance`, which insures the whole shipment split evenly among its boxes: sending both is a 400 `validation_failed` pointing here",
        examples: [{ amount: { amount: '450.00', currency: 'USD' } }],
      }),
    ),
  },
  {
    $id: 'Parcel',
    title: 'Parcel',
    description: 'One box to ship: its weight and, unless a package gives it, its size',
    additionalProperties: false,
    examples: [parcel, { weight: { value: 3, unit: 'lb' }, package_id: 'pkg_usps_flat_rate_envelope' }, { ...parcel, reference: 'Box 2: lamp', insurance: { amount: { amount: '450.00', currency: 'USD' } } }],
  },
);
export type Parcel = Static<typeof Parcel>;

export const LineItem = Type.Object(
  {
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Your stock-keeping unit', examples: ['MUG-1'] })),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'What the item is', examples: ['Stoneware mug'] }),
    quantity: Type.Integer({ minimum: 1, maximum: 100_000, description: 'How many are in the parcel' }),
    unit_price: Type.Ref(Money, { description: 'The price of one' }),
    weight: Type.Optional(Type.Ref(Weight, { description: 'The weight of one' })),
  },
  { $id: 'LineItem', title: 'LineItem', description: 'One line of the order: an item and how many', additionalProperties: false, examples: [lineItem] },
);
export type LineItem = Static<typeof LineItem>;

export const RequestedService = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier of the service' }),
    service: Type.String({ minLength: 1, maxLength: 50, description: "The carrier's service code, as in GET /carriers", examples: ['03'] }),
  },
  {
    $id: 'RequestedService',
    title: 'RequestedService',
    description: 'The service the buyer chose, such as at checkout: POST /shipments buys it when given no rate_id',
    additionalProperties: false,
    examples: [{ carrier: 'ups', service: '03' }],
  },
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

export const OrderStatus = StringEnum(['incomplete', 'shipped', 'delivered', 'cancelled'], {
  $id: 'OrderStatus',
  title: 'OrderStatus',
  description: '`incomplete` until a label is bought, and again once it is voided; `shipped` with an active label; `delivered` when tracking says so; `cancelled` by POST /orders/{id}/cancel',
});
export type OrderStatus = Static<typeof OrderStatus>;

const shipFromId = Type.String({ pattern: '^loc_[0-9a-z]{26}$', description: 'One of the account\'s ship-from locations (GET /ship-from)' });
const orderNumber = Type.String({ minLength: 1, maxLength: 100, description: 'Your own order number' });
const notes = Type.String({ maxLength: 2000, description: 'Your own notes; never sent to a carrier' });
/** Several boxes: 1 to 20, as the one-box `parcel` is one. */
export const parcelsField = (description: string) =>
  Type.Array(Type.Ref(Parcel), {
    minItems: 1,
    maxItems: 20,
    description: `${description}. Give \`parcel\` or \`parcels\`, not both. Each box gets its own label and tracking number, bought together as one shipment. Abroad, UPS and FedEx ship the boxes under one customs declaration; USPS draws a customs form per box, so each customs item names its box (\`customs.items[].parcel_index\`)`,
    examples: [
      [parcel, { weight: { value: 1.5, unit: 'lb' }, dimensions: { length: 8, width: 6, height: 4, unit: 'in' }, reference: 'Box 2: saucers' }],
      [parcel, { weight: { value: 6, unit: 'lb' }, dimensions: { length: 16, width: 12, height: 10, unit: 'in' }, reference: 'Box 2: lamp', insurance: { amount: { amount: '450.00', currency: 'USD' } } }],
    ],
  });

export const OrderCreate = Type.Object(
  {
    order_number: Type.Optional(orderNumber),
    ship_to: Type.Ref(Address, { description: 'Where the parcel goes' }),
    ship_from: Type.Optional(Type.Ref(Address, { description: 'Where it ships from; or give ship_from_id' })),
    ship_from_id: Type.Optional(shipFromId),
    items: Type.Optional(Type.Array(Type.Ref(LineItem), { maxItems: 500, description: 'What the parcel holds, up to 500 lines' })),
    parcel: Type.Optional(Type.Ref(Parcel, { description: 'The box to ship; needed (or parcels) before the order can be rated or bought a label' })),
    parcels: Type.Optional(parcelsField('The boxes to ship, 1 to 20, when the order ships in several')),
    package_id: Type.Optional(packageId),
    requested_service: Type.Optional(Type.Ref(RequestedService, { description: 'The service to buy when POST /shipments gets no rate_id' })),
    customs: Type.Optional(Type.Ref(CustomsInput, { description: 'The customs declaration, needed before a parcel that crosses a customs border is rated or bought a label' })),
    notes: Type.Optional(notes),
    metadata: Type.Optional(Type.Ref(Metadata, { description: 'Your own keys and values, kept with the order' })),
  },
  {
    $id: 'OrderCreate',
    title: 'OrderCreate',
    additionalProperties: false,
    description: 'Give ship_from or ship_from_id; with neither, the account\'s default ship-from location is used',
    examples: [orderCreate],
  },
);
export type OrderCreate = Static<typeof OrderCreate>;

export const OrderUpdate = Type.Object(
  {
    order_number: Type.Optional(Type.Union([orderNumber, Type.Null()], { description: 'Your own order number; null clears it' })),
    ship_to: Type.Optional(Type.Ref(Address, { description: 'Where the parcel goes' })),
    ship_from: Type.Optional(Type.Ref(Address, { description: 'Where it ships from, instead of a location' })),
    ship_from_id: Type.Optional(shipFromId),
    items: Type.Optional(Type.Array(Type.Ref(LineItem), { maxItems: 500, description: 'The whole new list of items, replacing the old one' })),
    parcel: Type.Optional(Type.Union([Type.Ref(Parcel), Type.Null()], { description: 'The box to ship, in place of every box the order had; null removes them' })),
    parcels: Type.Optional(Type.Union([parcelsField('The whole new list of boxes, replacing the old one'), Type.Null()], { description: 'The boxes to ship, in place of every box the order had; null removes them' })),
    package_id: Type.Optional(Type.Union([packageId, Type.Null()], { description: "A carrier box or one of your packages (GET /packages); null goes back to the parcel's own dimensions" })),
    requested_service: Type.Optional(Type.Union([Type.Ref(RequestedService), Type.Null()], { description: 'The service to buy when POST /shipments gets no rate_id; null leaves the choice to the cheapest rate' })),
    customs: Type.Optional(
      Type.Union([Type.Ref(CustomsInput), Type.Null()], { description: "The whole new customs declaration, built anew from the order's line items; null removes it" }),
    ),
    notes: Type.Optional(Type.Union([notes, Type.Null()], { description: 'Your own notes; null clears them' })),
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
    id: Type.String({ description: "The order's id", examples: [ids.order] }),
    object: Type.Literal('order', { description: 'Always `order`' }),
    status: Type.Ref(OrderStatus, { description: 'Where the order is: unshipped, shipped, delivered or cancelled' }),
    order_number: Type.Union([Type.String(), Type.Null()], { description: 'Your own order number, if you gave one' }),
    ship_to: Type.Ref(Address, { description: 'Where the parcel goes, state in upper case and ZIP+4 with its dash' }),
    ship_from: Type.Ref(Address, { description: 'The address shipped from, resolved from ship_from_id when one was given' }),
    ship_from_id: Type.Union([Type.String(), Type.Null()], { description: 'The ship-from location the address came from, if it came from one' }),
    items: Type.Array(Type.Ref(LineItem), { description: 'What the parcel holds' }),
    parcel: Type.Union([Type.Ref(Parcel), Type.Null()], { description: 'The box to ship (the first, where there are several); null until one is given' }),
    parcels: Type.Array(Type.Ref(Parcel), { description: 'Every box to ship, `parcel` first: one entry for a one-box order, none until a box is given' }),
    package_id: Type.Union([Type.String(), Type.Null()], { description: "The box the parcel ships in: the one given, or the account's default package for a parcel without dimensions" }),
    requested_service: Type.Union([Type.Ref(RequestedService), Type.Null()], { description: 'The service to buy when POST /shipments gets no rate_id' }),
    customs: Type.Union([Type.Ref(Customs), Type.Null()], { description: 'The customs declaration, its items completed from the line items they name; null when none was given' }),
    notes: Type.Union([Type.String(), Type.Null()], { description: 'Your own notes' }),
    metadata: Type.Ref(Metadata, { description: 'Your own keys and values' }),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'The active shipment, once a label is bought' }),
    mode: StringEnum(['test', 'live'], { description: 'Made with a test key (simulated carriers) or a live one' }),
    created_at: timestamp('When the order was made'),
    updated_at: timestamp('When it last changed'),
  },
  {
    $id: 'Order',
    title: 'Order',
    description: 'An order to ship: addresses, contents and parcel, and its label once bought',
    additionalProperties: false,
    examples: orders,
  },
);
export type Order = Static<typeof Order>;

export const OrderList = ListOf(Order, 'OrderList', 'Orders, newest first');

export const OrderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The order's ord_ id" }) }, { additionalProperties: false });
