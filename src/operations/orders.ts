import { Type } from '@sinclair/typebox';
import { cancelOrder, createOrder, getOrder, listOrders, updateOrder } from '../domain/orders/orders.ts';
import { listQueryFields } from '../schemas/list.ts';
import { Order, OrderCreate, OrderIdParams, OrderList, OrderStatus, OrderUpdate } from '../schemas/order.ts';
import { defineOperation } from './operation.ts';

const tag = 'Orders';

export const orderOperations = [
  defineOperation({
    id: 'createOrder',
    method: 'POST',
    path: '/orders',
    tag,
    summary: 'Create an order',
    description:
      'Creates an order in status `incomplete` and emits `order.created`; nothing is bought yet. Addresses are stored as carriers expect them: ' +
      'in the US in USPS form (upper-case state, ZIP+4 with its dash), elsewhere with the ISO country code, the state\'s ISO 3166-2 code where ' +
      'the country needs one and the postal code as the country writes it. `ship_to` may be in any country; `ship_from` is in the US. ' +
      '400 `validation_failed` names each field at fault: an unknown state, a postal code not of its country, a service code the carrier does not ' +
      'offer, a parcel over the carriers\' limits, an unknown `ship_from_id` or `package_id`, or no ship-from at all when the account has no ' +
      'default location. A `customs` declaration is kept with the order, its items completed from the line items they name by `sku`; one that ' +
      'breaks a customs rule is 400 `customs_invalid`, naming each field. Send an Idempotency-Key to make retries safe.',
    body: OrderCreate,
    response: Type.Ref(Order),
    responseDescription: 'The new order',
    successStatus: 201,
    errors: ['customs_invalid'],
    idempotent: true,
    handler: (ctx, { body }) => createOrder(ctx, body),
  }),
  defineOperation({
    id: 'listOrders',
    method: 'GET',
    path: '/orders',
    tag,
    summary: 'List orders',
    description: "The calling key's orders, newest first, a page at a time (`limit`, then `cursor` from `next_cursor`); filter by `status`, `order_number` or creation time. Changes nothing.",
    query: Type.Object(
      {
        ...listQueryFields,
        status: Type.Optional(Type.Ref(OrderStatus, { description: 'Only orders in this status' })),
        order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only orders with this order number of yours' })),
      },
      { additionalProperties: false },
    ),
    response: Type.Ref(OrderList),
    responseDescription: 'A page of orders',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listOrders(ctx, query),
  }),
  defineOperation({
    id: 'getOrder',
    method: 'GET',
    path: '/orders/:id',
    tag,
    summary: 'Get an order',
    description: "One of the calling key's orders, with its current status and, once a label is bought, its `shipment_id`. 404 for an id that is not this key's.",
    params: OrderIdParams,
    response: Type.Ref(Order),
    responseDescription: 'The order',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getOrder(ctx, params.id),
  }),
  defineOperation({
    id: 'updateOrder',
    method: 'PATCH',
    path: '/orders/:id',
    tag,
    summary: 'Change an incomplete order',
    description:
      'Changes only the fields sent (null clears an optional one; `metadata` is merged, a null value removing its key) and emits `order.updated`. ' +
      'A `customs` sent replaces the declaration whole (null removes it); the kept one is checked again against a new parcel or destination. ' +
      'Orders that are shipped, delivered or cancelled, or whose label is being bought at that moment, answer 409 `order_not_editable`.',
    params: OrderIdParams,
    body: OrderUpdate,
    response: Type.Ref(Order),
    responseDescription: 'The changed order',
    errors: ['not_found', 'order_not_editable', 'customs_invalid'],
    handler: (ctx, { params, body }) => updateOrder(ctx, params.id, body),
  }),
  defineOperation({
    id: 'cancelOrder',
    method: 'POST',
    path: '/orders/:id/cancel',
    tag,
    summary: 'Cancel an incomplete order',
    description:
      'Moves an `incomplete` order to `cancelled` and emits `order.updated`; a cancelled order can be neither changed nor bought a label. ' +
      'An order that is shipped, delivered or already cancelled answers 409 `order_not_cancellable` (void its label first).',
    params: OrderIdParams,
    response: Type.Ref(Order),
    responseDescription: 'The cancelled order',
    errors: ['not_found', 'order_not_cancellable'],
    handler: (ctx, { params }) => cancelOrder(ctx, params.id),
  }),
];
