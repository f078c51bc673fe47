import type { FastifyInstance } from 'fastify';
import { ordersOf } from '../../domain/dashboard/account-view.ts';
import type { OrderStatus } from '../../schemas/order.ts';
import type { PageDeps } from '../page-deps.ts';
import { readFilters } from '../filters.ts';
import { routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

const statuses = ['incomplete', 'shipped', 'delivered', 'cancelled'] as const;

export function registerOrders(app: FastifyInstance, { services, mode }: PageDeps): void {
  app.get(routeOf(mode, 'orders'), async (request, reply) => {
    const filters = readFilters<{ status?: OrderStatus; order_number?: string }>(request, { status: statuses, order_number: null });
    const page = await filters.load((query) => ordersOf(services.database.db, scopeOf(request, mode), query));
    return sendPage(request, reply, mode, 'orders', { title: 'Orders', section: 'orders', page, filters, statuses, errors: filters.errors });
  });
}
