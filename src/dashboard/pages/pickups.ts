import type { FastifyInstance } from 'fastify';
import { pickupsOf, todayFor, type PickupFilters } from '../../domain/dashboard/account-view.ts';
import { carrierIds } from '../../config.ts';
import { PickupStatus } from '../../schemas/pickup.ts';
import type { PageDeps } from '../page-deps.ts';
import { readFilters } from '../filters.ts';
import { routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

/** The statuses a pickup can have, as the schema lists them. */
const statuses = (PickupStatus as unknown as { enum: readonly string[] }).enum;

/**
 * Pickups: the carrier pickups the account's keys booked, a day at a time (today by default). Read-only: POST
 * /pickups books them and POST /pickups/{id}/cancel cancels them.
 */
export function registerPickups(app: FastifyInstance, { services, mode }: PageDeps): void {
  if (!services.config.features.has('pickups')) return;
  const db = services.database.db;

  app.get(routeOf(mode, 'pickups'), async (request, reply) => {
    const scope = scopeOf(request, mode);
    const today = await todayFor(db, scope, services.clock.now());
    const filters = readFilters<PickupFilters>(request, { date: 'date', carrier: carrierIds, status: statuses }, { date: today });
    const page = await filters.load((query) => pickupsOf(db, scope, query));
    return sendPage(request, reply, mode, 'pickups', {
      title: 'Pickups',
      section: 'pickups',
      page,
      filters,
      today,
      carriers: carrierIds,
      statuses,
      errors: filters.errors,
    });
  });
}
