import { Type, type Static } from '@sinclair/typebox';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, ShipDateInput, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { Dimensions, Metadata, Money, Weight } from './order.ts';
import { Surcharge } from './surcharge.ts';
import { ShipmentOptions } from './options.ts';
import { Insurance } from './insurance.ts';
import { TrackingStatus } from './tracker.ts';
import { ids, returnShipment, returnShipmentPastDue, shipment, shipmentAbroad, shipmentSeveralBoxes, trackingNumber } from './examples.ts';

export const LabelFormatSchema = StringEnum(['pdf', 'zpl', 'png'], {
  $id: 'LabelFormat',
  title: 'LabelFormat',
  description: '4×6 label as PDF, ZPL II for thermal printers, or PNG at 203 dpi',
  default: 'pdf',
});

export const LabelSizeSchema = StringEnum(['4x6', '4x8', 'letter'], {
  $id: 'LabelSize',
  title: 'LabelSize',
  description:
    "The label's paper: `4x6` (default) or `4x8` label stock, or `letter`, an 8.5×11 sheet with the 4×6 label in its top half, turned to fit, above a fold line, for desktop printers (PDF and PNG only). " +
    "Live labels are the carrier's own, in the sizes it prints: UPS 4x6 (and 4x8 in ZPL), USPS 4x6, FedEx all three. A letter sheet from UPS or USPS is the carrier's own 4×6 label placed on the sheet unchanged; 4x8 from UPS in PDF or PNG, or from USPS, is a 422 `not_supported_by_carrier`, in test mode too",
  default: '4x6',
});

export const LabelResolutionSchema = Type.Union([Type.Literal(203), Type.Literal(300)], {
  $id: 'LabelResolution',
  title: 'LabelResolution',
  description: "A ZPL label's dots per inch, as your thermal printer prints: 203 (default) or 300 (USPS and FedEx). Only with `label_format: \"zpl\"`",
  default: 203,
});

const referencesField = Type.Array(Type.String({ minLength: 1, maxLength: 35, pattern: '\\S', description: 'A PO number, invoice number or any short text' }), {
  maxItems: 3,
  description:
    "Up to 3 references printed on the label and sent in the carrier's reference fields (UPS ReferenceNumber, FedEx customerReferences as customer reference, " +
    'P.O. number and invoice number in that order, USPS customerReference). Without it, the order number; `[]` prints none. Carriers take fewer or shorter ones: ' +
    'UPS 2 of 35 characters, FedEx 3 of 30, USPS 3 of 30 (2 abroad); more is a 422 `not_supported_by_carrier` pointing at the reference',
  examples: [['PO-88213', 'INV-2026-0042']],
});

/** What shipments and return labels both take of how the label is printed. */
const labelFields = {
  label_format: Type.Optional(Type.Ref(LabelFormatSchema, { description: 'The file to print: pdf unless told otherwise' })),
  label_size: Type.Optional(Type.Ref(LabelSizeSchema, { description: 'The paper: 4x6 unless told otherwise' })),
  label_resolution: Type.Optional(Type.Ref(LabelResolutionSchema, { description: 'ZPL only: 203 dpi unless told otherwise' })),
  references: Type.Optional(referencesField),
};

export const ShipmentCreate = Type.Object(
  {
    order_id: Type.String({ minLength: 1, maxLength: 100, description: 'An incomplete order of yours', examples: [ids.order] }),
    rate_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "A rate quoted for this order's addresses and parcel in the last 24 hours. Without it: the order's requested service, else the cheapest rate.",
      }),
    ),
    ...labelFields,
    ship_date: Type.Optional(
      Type.String({
        ...ShipDateInput,
        description: `${ShipDateInput.description}. With rate_id it may be left out, as the rate's own date (its shop's ship_date) is used; a different one is 409 \`rate_not_for_order\``,
      }),
    ),
    options: Type.Optional(
      Type.Ref(ShipmentOptions, {
        description:
          "Delivery options for the label. With rate_id they may be left out, as the rate's own (its shop's options) are used; different ones are 409 `rate_not_for_order`. Without rate_id, only services that offer every one are chosen from",
      }),
    ),
    insurance: Type.Optional(
      Type.Ref(Insurance, {
        description:
          "Insure the shipment for this value with the carrier, split evenly among its boxes. With rate_id it may be left out, as the rate's own (its shop's `insurance`) is used; a different one is 409 `rate_not_for_order`. " +
          "Not for an order whose boxes have their own `insurance` (they are insured at it, and a rate shopped for them is bound to it): sending both is a 400 `validation_failed` pointing here",
      }),
    ),
    metadata: Type.Optional(Type.Ref(Metadata, { description: 'Your own keys and values, kept with the shipment' })),
  },
  {
    $id: 'ShipmentCreate',
    title: 'ShipmentCreate',
    description: 'Which order to buy a label for, and at which rate',
    additionalProperties: false,
    examples: [
      { order_id: ids.order, rate_id: ids.rates[2], label_format: 'pdf' },
      { order_id: ids.order, ship_date: '2026-11-30' },
      { order_id: ids.order, insurance: { amount: { amount: '450.00', currency: 'USD' } } },
      { order_id: ids.order, rate_id: ids.rates[2], label_format: 'zpl', label_size: '4x8', label_resolution: 300, references: ['PO-88213', 'INV-2026-0042'] },
      { order_id: ids.order, options: { signature: 'adult' } },
    ],
  },
);
export type ShipmentCreate = Static<typeof ShipmentCreate>;

export const ReturnChargeSchema = StringEnum(['on_create', 'on_use'], {
  $id: 'ReturnCharge',
  title: 'ReturnCharge',
  description:
    "When a return label's postage is charged: `on_create` (default) when it is made, refunded if it is voided; `on_use` only once the carrier first scans it " +
    "(in test mode, when its simulated journey starts), at the price quoted when it was made, so a label the customer never sends costs nothing. Either way it is the carrier's " +
    'pay-on-use return service (USPS returns, UPS Print Return Label, FedEx printed return label)',
  default: 'on_create',
});

export const ReturnChargeStatusSchema = StringEnum(['pending', 'paid', 'past_due'], {
  $id: 'ReturnChargeStatus',
  title: 'ReturnChargeStatus',
  description:
    "Where the charge of a return paid on use stands once the carrier has scanned it: `pending` while the account's card is being charged, `paid` once it is, " +
    "`past_due` when the card declined it: the postage is still owed and is charged again on its own (a day later, then after 2, 4 and 7 more days), and at once " +
    "when a card is saved on the dashboard's Billing page. Test mode's payment methods pay at the scan",
});

export const ReturnStatusSchema = StringEnum(['unused', 'in_transit', 'delivered'], {
  $id: 'ReturnStatus',
  title: 'ReturnStatus',
  description:
    "How far a return label has come: `unused` until the carrier first scans it (a voided return that was never sent stays `unused`), `in_transit` from that scan on " +
    '(whatever the tracking says next, short of delivery), `delivered` once back with the sender',
});

export const ReturnCreate = Type.Object(
  {
    ...labelFields,
    charge: Type.Optional(Type.Ref(ReturnChargeSchema, { description: 'When the postage is charged: on_create unless told otherwise' })),
    carrier: Type.Optional(
      Type.Ref(CarrierIdSchema, {
        description: "The carrier to buy the return from; the outbound label's carrier unless told otherwise. Any carrier the key may use will do",
      }),
    ),
    service: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 60,
        description:
          "The carrier's service code for the way back (GET /carriers lists them). Without it: the outbound label's service when the return's carrier offers it for returns, " +
          'else its cheapest return rate. A service the carrier does not offer back is 422 `no_rate_available`',
        examples: ['USPS_GROUND_ADVANTAGE'],
      }),
    ),
    metadata: Type.Optional(Type.Ref(Metadata, { description: 'Your own keys and values, kept with the return label' })),
  },
  {
    $id: 'ReturnCreate',
    title: 'ReturnCreate',
    description: 'How to make a return label; every field is optional',
    additionalProperties: false,
    examples: [
      { label_format: 'pdf', metadata: { rma: 'RMA-2291' } },
      { label_format: 'pdf', label_size: 'letter', references: ['RMA-2291'] },
      { charge: 'on_use', metadata: { rma: 'RMA-2291' } },
      { charge: 'on_use', carrier: 'usps', service: 'USPS_GROUND_ADVANTAGE' },
    ],
  },
);
export type ReturnCreate = Static<typeof ReturnCreate>;

export const ShipmentStatusSchema = StringEnum(['purchased', 'voided', 'void_pending'], {
  $id: 'ShipmentStatus',
  title: 'ShipmentStatus',
  description: '`void_pending`: voided, with the carrier\'s refund to the platform still under its review (USPS); platform postage is refunded to the account at once either way',
});

export const ShipmentDocument = Type.Object(
  {
    type: StringEnum(['commercial_invoice', 'cn22', 'cn23'], {
      description:
        "`commercial_invoice`: UPS's and FedEx's invoice for goods; `cn22`: USPS's CN 22 (PS Form 2976), for light items of little value; `cn23`: USPS's CN 23/CP 72 (PS Form 2976-A)",
    }),
    format: Type.Literal('pdf', { description: 'Always `pdf`' }),
    url: Type.String({ format: 'uri', description: 'The document, fetchable without the API key for 7 days, as label_url is; print it and attach it as the carrier asks' }),
    package: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 19,
        description:
          "Where the document is one box's own (USPS abroad with several boxes: each box is a label of its own, with a customs form listing only the lines whose `parcel_index` names it), the box's index in `packages`; absent for a document of the whole shipment",
        examples: [1],
      }),
    ),
  },
  {
    $id: 'ShipmentDocument',
    title: 'ShipmentDocument',
    description: 'A customs document drawn from the shipment\'s declaration, or from its lines in one box; in test mode marked SAMPLE, as labels are',
    additionalProperties: false,
    examples: shipmentAbroad.documents,
  },
);

export const ShipmentPackage = Type.Object(
  {
    tracking_number: Type.String({ description: "This box's own tracking number", examples: [trackingNumber] }),
    label_url: Type.String({ format: 'uri', description: "This box's own label, in the shipment's label_format, fetchable without the API key for 7 days as label_url is" }),
    weight: Type.Ref(Weight, { description: 'What the box weighs, in pounds' }),
    dimensions: Type.Optional(Type.Ref(Dimensions, { description: 'Its size, in inches, where it was given or its package gave it' })),
    reference: Type.Optional(Type.String({ description: 'The reference given for the box, printed on its label' })),
    insurance: Type.Optional(
      Type.Ref(Insurance, {
        description: "The value the carrier insures this box for: the box's own `insurance`, or its share of the shipment's; absent for a box not insured (the carrier's own liability only)",
      }),
    ),
    status: Type.Ref(ShipmentStatusSchema, {
      description:
        "Whether the box is still to ship: `purchased`, or `voided` (`void_pending`) once it was voided, on its own (POST /shipments/{order_id}/void with `package`) or with the whole label, whose status it then has. A voided box's label_url answers 410 and the shipment's merged label leaves it out",
    }),
    voided_at: timestampOrNull('When the box was voided, on its own or with the label; null while it is to ship'),
    tracking_status: Type.Ref(TrackingStatus, {
      description: "Where this box is, as the carrier last reported it (the box's own `status` in tracking and in `tracking.updated` events with its `package`); `cancelled` once voided",
    }),
  },
  {
    $id: 'ShipmentPackage',
    title: 'ShipmentPackage',
    description: 'One box of a shipment, with its own tracking number, label, void and tracking status',
    additionalProperties: false,
    examples: shipmentSeveralBoxes.packages,
  },
);

export const Shipment = Type.Object(
  {
    id: Type.String({ description: "The label's id", examples: [ids.shipment] }),
    object: Type.Literal('shipment', { description: 'Always `shipment`' }),
    order_id: Type.String({ description: 'The order it ships (or, for a return label, brings back)' }),
    status: Type.Ref(ShipmentStatusSchema, { description: 'Whether the label is active or voided' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier it was bought from' }),
    service: Type.String({ description: "The carrier's service code", examples: ['03'] }),
    service_name: Type.String({ description: "The service's name", examples: ['UPS Ground'] }),
    tracking_number: Type.String({ description: "The carrier's tracking number, for POST /tracking or the carrier's site; the first box's where there are several", examples: [trackingNumber] }),
    label_url: Type.String({
      format: 'uri',
      description:
        'The label file, fetchable without the API key for 7 days (the token in the URL signs it); GET the shipment again for a fresh one. With several boxes, every box\'s label in one file: the pages of one PDF, ZPL formats back to back, or for PNG the labels one below the other in one image; a box voided on its own is left out',
    }),
    packages: Type.Array(Type.Ref(ShipmentPackage), { description: 'Every box, in the order the order lists them: one entry for a one-box shipment' }),
    master_tracking_number: Type.Union([Type.String(), Type.Null()], {
      description:
        'Where the carrier files several boxes under one number (UPS: the first box\'s 1Z number; FedEx: the master tracking number, the first piece\'s), that number; null for one box, and for USPS, where each box is a label of its own',
      examples: [null],
    }),
    label_format: Type.Ref(LabelFormatSchema, { description: 'The format label_url serves' }),
    label_size: Type.Ref(LabelSizeSchema, { description: 'The paper the label was bought for; downloads in PDF and PNG keep it (a ZPL download of a letter label is the 4×6 label)' }),
    label_resolution: Type.Union([Type.Ref(LabelResolutionSchema), Type.Null()], { description: 'The dots per inch of a ZPL label; null for PDF and PNG' }),
    references: Type.Array(Type.String(), { description: 'The references printed on the label and sent to the carrier: those asked for, else the order number' }),
    documents: Type.Array(Type.Ref(ShipmentDocument), {
      description:
        "The customs documents the label needs, from its customs declaration; empty for a parcel that crosses no customs border. With several USPS boxes, each box's own form (its `package` says which), listing that box's lines. With a live key, the carrier's own: UPS's and FedEx's commercial invoice; USPS prints its customs form on the label itself, so lists none",
    }),
    postage: Type.Ref(Money, {
      description:
        'What the label cost; for a return with `charge: "on_use"`, what it will cost once scanned (nothing is charged while `return_status` is `unused`). ' +
        'A box voided on its own is refunded its share without changing it',
    }),
    surcharges: Type.Array(Type.Ref(Surcharge), {
      description:
        "The surcharges of the rate bought, as it quoted them (in the rate's currency): already included in `postage`. Empty where the carrier itemized none, and on labels bought before rates showed them",
    }),
    payment: StringEnum(['platform', 'carrier_account', 'none'], {
      description: "`platform`: charged to the account's payment method; `carrier_account`: billed by the carrier to the account's own carrier account; `none`: nothing to pay",
    }),
    rate_id: Type.Union([Type.String(), Type.Null()], { description: 'The rate bought, when one was given' }),
    ship_date: Type.String({
      format: 'date',
      description: "The day the label is for (YYYY-MM-DD, in the ship-from location's time zone): the one asked for, else the day it was bought. It is printed on the label, delivery estimates count from it, and the label goes on that day's manifest",
      examples: ['2026-11-23'],
    }),
    options: Type.Ref(ShipmentOptions, { description: 'The delivery options the label was bought with; `{}` for none' }),
    insurance: Type.Union([Type.Ref(Insurance), Type.Null()], {
      description:
        "The value the carrier insures the shipment for: the shipment's `insurance`, or where boxes were insured one by one, the sum of theirs (each box's is in `packages`); null for none (the carrier's own liability only). Its cost is in `postage`",
    }),
    is_return: Type.Boolean({ description: 'Whether it is a return label, from the recipient back to the sender' }),
    charge: Type.Union([Type.Ref(ReturnChargeSchema), Type.Null()], { description: "A return label's: when its postage is charged. Null for outbound labels" }),
    return_status: Type.Union([Type.Ref(ReturnStatusSchema), Type.Null()], {
      description: 'A return label\'s progress: `unused`, `in_transit`, `delivered`; a `shipment.updated` event tells each change. Null for outbound labels',
    }),
    charge_status: Type.Union([Type.Ref(ReturnChargeStatusSchema), Type.Null()], {
      description:
        'A return paid on use (`charge: "on_use"`) once scanned: whether its postage is `paid`, still `pending`, or `past_due` after a declined card; a `shipment.updated` event tells each change. ' +
        'Null before the scan, for labels paid when bought, and for labels billed to a carrier account',
    }),
    metadata: Type.Ref(Metadata, { description: 'Your own keys and values' }),
    mode: StringEnum(['test', 'live'], { description: 'Bought with a test key (simulated, free) or a live one (real postage)' }),
    created_at: timestamp('When it was bought'),
    voided_at: timestampOrNull('When it was voided; null while it is active'),
  },
  {
    $id: 'Shipment',
    title: 'Shipment',
    description: 'A label bought for an order: its carrier, service, tracking number, price and file',
    additionalProperties: false,
    examples: [shipment, shipmentAbroad, returnShipment, returnShipmentPastDue, shipmentSeveralBoxes],
  },
);
export type Shipment = Static<typeof Shipment>;

export const ShipmentList = ListOf(Shipment, 'ShipmentList', 'Shipments, newest first');

export const VoidRequest = Type.Object(
  {
    package: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 19,
        description:
          "Void only this box of a shipment of several: its index in the shipment's `packages` (0 for the first), as tracking numbers its boxes. The other boxes ship on; " +
          "the box's share of the postage is refunded. Voiding the last box not yet voided voids the whole shipment. Without it, every box is voided",
        examples: [1],
      }),
    ),
  },
  {
    $id: 'VoidRequest',
    title: 'VoidRequest',
    description: 'What to void: the whole label (no body, or `{}`), or one box of it',
    additionalProperties: false,
    examples: [{}, { package: 1 }],
  },
);
export type VoidRequest = Static<typeof VoidRequest>;

export const ShipmentIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100, description: "A shp_ id, or an order's ord_ id for that order's current shipment" }) },
  { additionalProperties: false },
);

export const ShipmentOrderParams = Type.Object(
  { order_id: Type.String({ minLength: 1, maxLength: 100, description: "The order's ord_ id; voiding also takes a label's own shp_ id, such as a return label's" }) },
  { additionalProperties: false },
);
