import { Type } from '@sinclair/typebox';
import { cancelOrder, createOrder, getOrder, listOrders, updateOrder } from '../domain/orders.ts';
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
    description: 'Creates an order in status `incomplete` and emits `order.created`. Send an Idempotency-Key to make retries safe.',
    body: OrderCreate,
    response: Type.Ref(Order),
    responseDescription: 'The new order',
    successStatus: 201,
    errors: [],
    idempotent: true,
    handler: (ctx, { body }) => createOrder(ctx, body),
  }),
  defineOperation({
    id: 'listOrders',
    method: 'GET',
    path: '/orders',
    tag,
    summary: 'List orders',
    description: "The calling key's orders, newest first.",
    query: Type.Object(
      {
        ...listQueryFields,
        status: Type.Optional(Type.Ref(OrderStatus)),
        order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
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
    description: 'Changes only the fields sent; emits `order.updated`. Orders that are shipped, delivered or cancelled answer 409.',
    params: OrderIdParams,
    body: OrderUpdate,
    response: Type.Ref(Order),
    responseDescription: 'The changed order',
    errors: ['not_found', 'order_not_editable'],
    handler: (ctx, { params, body }) => updateOrder(ctx, params.id, body),
  }),
  defineOperation({
    id: 'cancelOrder',
    method: 'POST',
    path: '/orders/:id/cancel',
    tag,
    summary: 'Cancel an incomplete order',
    description: 'Moves an `incomplete` order to `cancelled` and emits `order.updated`.',
    params: OrderIdParams,
    response: Type.Ref(Order),
    responseDescription: 'The cancelled order',
    errors: ['not_found', 'order_not_cancellable'],
    handler: (ctx, { params }) => cancelOrder(ctx, params.id),
  }),
];
