import { Type } from '@sinclair/typebox';
import { buyLabel } from '../domain/shipments/purchase.ts';
import { createReturnLabel } from '../domain/shipments/returns.ts';
import { getShipment, listShipments } from '../domain/shipments/shipments.ts';
import { voidLabel } from '../domain/shipments/void.ts';
import { listQueryFields } from '../schemas/list.ts';
import { ReturnCreate, Shipment, ShipmentCreate, ShipmentIdParams, ShipmentList, ShipmentOrderParams, ShipmentStatusSchema, VoidRequest } from '../schemas/shipment.ts';
import { defineOperation } from './operation.ts';

/** What a purchase answers when its postage cannot be paid for: before any carrier is asked, nothing is bought. */
const paymentRefusals = ['payment_method_required', 'payment_declined', 'payment_authentication_required', 'billing_not_configured'] as const;

const tag = 'Shipments';

export const shipmentOperations = [
  defineOperation({
    id: 'buyLabel',
    method: 'POST',
    path: '/shipments',
    tag,
    summary: 'Buy a label for an order',
    description:
      'Buys the label of an `incomplete` order: with `rate_id`, that rate (quoted for this order in the last 24 hours); without it, the ' +
      "order's requested service, else the cheapest rate. Platform postage is charged to the account's payment method (402 without one); " +
      "a live key's is held on the account's card through Stripe before the carrier is asked and charged once the label is bought, so a " +
      'decline (402 `payment_declined` with the card\'s `decline_code`) or Stripe out of reach (503 `billing_unavailable`) buys nothing. ' +
      'An order has at most one active label: another purchase answers 409 `order_already_shipped`. Send an Idempotency-Key: a retry ' +
      'gets the same label, never a second one. An order that crosses a customs border needs its `customs` declaration (400 `customs_required`, ' +
      'fixed with PATCH /orders/{id}), before any carrier is asked; live keys buy abroad through the carriers\' international APIs, ' +
      'sending the declaration with the label request. A label abroad lists its customs documents in `documents`. `label_size`, ' +
      "`label_resolution` and `references` say how the label is printed; what the chosen carrier does not print answers 422 " +
      '`not_supported_by_carrier` with a pointer, before anything is stored or charged. Emits `shipment.created` and `order.updated`. **Spends money with live keys.**',
    body: ShipmentCreate,
    response: Type.Ref(Shipment),
    responseDescription: 'The label bought',
    successStatus: 201,
    errors: [
      'not_found',
      ...paymentRefusals,
      'order_already_shipped',
      'order_not_purchasable',
      'rate_expired',
      'rate_not_for_order',
      'customs_required',
      'country_not_served',
      'not_supported_by_carrier',
      'no_rate_available',
      'carrier_error',
      'billing_unavailable',
      'carrier_timeout',
    ],
    idempotent: true,
    ownTransactions: true,
    handler: (ctx, { body }) => buyLabel(ctx, body),
  }),
  defineOperation({
    id: 'listShipments',
    method: 'GET',
    path: '/shipments',
    tag,
    summary: 'List shipments',
    description: "The calling key's labels, outbound and return, newest first, a page at a time; filter by `status`, `order_id`, `tracking_number` or creation time. Changes nothing.",
    query: Type.Object(
      {
        ...listQueryFields,
        status: Type.Optional(Type.Ref(ShipmentStatusSchema, { description: 'Only labels in this status' })),
        order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Only this order's labels, outbound and return" })),
        tracking_number: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Only the label with this tracking number' })),
      },
      { additionalProperties: false },
    ),
    response: Type.Ref(ShipmentList),
    responseDescription: 'A page of shipments',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listShipments(ctx, query),
  }),
  defineOperation({
    id: 'getShipment',
    method: 'GET',
    path: '/shipments/:id',
    tag,
    summary: 'Get a shipment',
    description: "By `shp_` id, or by `ord_` id for that order's current outbound label. Each answer carries a fresh `label_url`. 404 for an id that is not this key's, or an order without a label.",
    params: ShipmentIdParams,
    response: Type.Ref(Shipment),
    responseDescription: 'The shipment',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getShipment(ctx, params.id),
  }),
  defineOperation({
    id: 'voidLabel',
    method: 'POST',
    path: '/shipments/:order_id/void',
    tag,
    summary: 'Void a label, or one box of it',
    description:
      "Voids the order's active label (or, given a `shp_` id, that label, such as a return) if the carrier has not scanned it yet. " +
      'The postage is refunded and the order goes back to `incomplete`. Emits `shipment.voided` and `order.updated`. A label the carrier has ' +
      'scanned answers 409 `label_in_transit`, one on an end-of-day manifest 409 `label_manifested`, one voided before 409 `shipment_already_voided`. ' +
      'With `{ "package": n }`, only box n of a shipment of several (its index in `packages`, from 0): that box gets `status: "voided"`, its label_url ' +
      "answers 410 and the merged label_url leaves it out, its share of the postage is refunded (USPS: the box's own price; UPS and FedEx: the postage split evenly " +
      'among the boxes), and the order stays shipped; emits `shipment.updated`. The last box not yet voided voids the whole shipment, as a void without ' +
      '`package` does. A box voided before answers 409 `shipment_already_voided`, a box the label does not have 400 with the pointer `/package`, and a box ' +
      'the carrier has scanned 409 `label_in_transit`. Test mode voids single boxes for every carrier; live, UPS (the package alone, under its shipment) and ' +
      "USPS (the box's own label) do too, and postage paid by card gets the box's share back as a partial refund of its charge. FedEx cancels whole shipments " +
      'only, so one FedEx box answers 422 `not_supported_by_carrier` with the pointer `/package`.',
    params: ShipmentOrderParams,
    body: VoidRequest,
    response: Type.Ref(Shipment),
    responseDescription: 'The shipment, voided or with the box voided',
    errors: ['not_found', 'order_not_shipped', 'shipment_already_voided', 'label_in_transit', 'label_manifested', 'not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    handler: (ctx, { params, body }) => voidLabel(ctx, params.order_id, body.package),
  }),
  defineOperation({
    id: 'createReturnLabel',
    method: 'POST',
    path: '/shipments/:order_id/return',
    tag,
    summary: 'Create a return label',
    description:
      'A label from the recipient back to the sender (`is_return: true`), with the carrier of the outbound label or the `carrier` asked for. One active return ' +
      'label per order. With `charge: "on_use"` nothing is charged until the carrier first scans the label: the tracking worker then charges the price quoted now ' +
      'and emits `shipment.updated` (`return_status` `in_transit`); a return never sent never costs anything. Send an Idempotency-Key. Emits `shipment.created`. ' +
      'An order without an active outbound label answers 409 `order_not_shipped`; a `service` the carrier does not offer back 422 `no_rate_available`; ' +
      'a second return label 409 `order_already_shipped`; a return from another country 422 `country_not_served` (return labels leave from the US). **Spends money with live keys.**',
    params: ShipmentOrderParams,
    body: ReturnCreate,
    response: Type.Ref(Shipment),
    responseDescription: 'The return label',
    successStatus: 201,
    errors: [
      'not_found',
      ...paymentRefusals,
      'order_not_shipped',
      'order_already_shipped',
      'customs_required',
      'country_not_served',
      'not_supported_by_carrier',
      'no_rate_available',
      'carrier_error',
      'billing_unavailable',
      'carrier_timeout',
    ],
    idempotent: true,
    ownTransactions: true,
    handler: (ctx, { params, body }) => createReturnLabel(ctx, params.order_id, body),
  }),
];
