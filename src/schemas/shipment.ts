import { Type, type Static } from '@sinclair/typebox';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, Timestamp } from './common.ts';
import { Metadata, Money } from './order.ts';

export const LabelFormatSchema = StringEnum(['pdf', 'zpl', 'png'], {
  $id: 'LabelFormat',
  title: 'LabelFormat',
  description: '4×6 label as PDF, ZPL II for thermal printers, or PNG at 203 dpi',
  default: 'pdf',
});

export const ShipmentCreate = Type.Object(
  {
    order_id: Type.String({ minLength: 1, maxLength: 100, description: 'An incomplete order of yours', examples: ['ord_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    rate_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "A rate quoted for this order's addresses and parcel in the last 24 hours. Without it: the order's requested service, else the cheapest rate.",
      }),
    ),
    label_format: Type.Optional(Type.Ref(LabelFormatSchema)),
    metadata: Type.Optional(Type.Ref(Metadata)),
  },
  {
    $id: 'ShipmentCreate',
    title: 'ShipmentCreate',
    additionalProperties: false,
    examples: [{ order_id: 'ord_01jf3k4m5n6p7q8r9s0t1v2w3x', rate_id: 'rate_01jf3k4m5n6p7q8r9s0t1v2w3x00', label_format: 'pdf' }],
  },
);
export type ShipmentCreate = Static<typeof ShipmentCreate>;

export const ReturnCreate = Type.Object(
  {
    label_format: Type.Optional(Type.Ref(LabelFormatSchema)),
    metadata: Type.Optional(Type.Ref(Metadata)),
  },
  { $id: 'ReturnCreate', title: 'ReturnCreate', additionalProperties: false },
);
export type ReturnCreate = Static<typeof ReturnCreate>;

export const ShipmentStatusSchema = StringEnum(['purchased', 'voided', 'void_pending'], {
  $id: 'ShipmentStatus',
  title: 'ShipmentStatus',
  description: '`void_pending`: voided, with the carrier\'s refund to the platform still under its review (USPS); platform postage is refunded to the account at once either way',
});

export const Shipment = Type.Object(
  {
    id: Type.String({ examples: ['shp_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('shipment'),
    order_id: Type.String(),
    status: Type.Ref(ShipmentStatusSchema),
    carrier: Type.Ref(CarrierIdSchema),
    service: Type.String({ description: "The carrier's service code", examples: ['03'] }),
    service_name: Type.String({ examples: ['UPS Ground'] }),
    tracking_number: Type.String({ examples: ['1Z1442YY7229014688'] }),
    label_url: Type.String({
      format: 'uri',
      description: 'The label file, fetchable without the API key for 7 days (the token in the URL signs it); GET the shipment again for a fresh one',
    }),
    label_format: Type.Ref(LabelFormatSchema),
    postage: Type.Ref(Money),
    payment: StringEnum(['platform', 'carrier_account', 'none'], {
      description: "`platform`: charged to the account's payment method; `carrier_account`: billed by the carrier to the account's own carrier account; `none`: nothing to pay",
    }),
    rate_id: Type.Union([Type.String(), Type.Null()], { description: 'The rate bought, when one was given' }),
    is_return: Type.Boolean(),
    metadata: Type.Ref(Metadata),
    mode: StringEnum(['test', 'live']),
    created_at: Timestamp,
    voided_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'Shipment', title: 'Shipment', additionalProperties: false },
);
export type Shipment = Static<typeof Shipment>;

export const ShipmentList = ListOf(Type.Ref(Shipment), 'ShipmentList', 'Shipments, newest first');

export const ShipmentIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100, description: "A shp_ id, or an order's ord_ id for that order's current shipment" }) },
  { additionalProperties: false },
);

export const ShipmentOrderParams = Type.Object({ order_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
