import type { FastifyInstance } from 'fastify';
import { ordersOf } from '../../domain/account-view.ts';
import type { OrderStatus } from '../../schemas/order.ts';
import type { PageDeps } from '../plugin.ts';
import { readFilters } from '../filters.ts';
import { routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

const statuses = ['incomplete', 'shipped', 'delivered', 'cancelled'] as const;

export function registerOrders(app: FastifyInstance, { services, mode }: PageDeps): void {
  app.get(routeOf(mode, 'orders'), async (request, reply) => {
    const filters = readFilters<{ status?: OrderStatus; order_number?: string }>(request, { status: statuses, order_number: null });
    const empty = { object: 'list' as const, data: [], has_more: false, next_cursor: null };
    const page = Object.keys(filters.errors).length > 0 ? empty : await ordersOf(services.database.db, scopeOf(request, mode), filters.query);
    const filtered = Object.values(filters.values).some(Boolean);
    return sendPage(request, reply, mode, 'orders', { title: 'Orders', section: 'orders', page, filters, filtered, statuses, errors: filters.errors });
  });
}
