import type { FastifyInstance } from 'fastify';
import { trackerOf, trackersOf, type TrackerFilters } from '../../domain/dashboard/account-view.ts';
import { carrierIds } from '../../config.ts';
import { trackingStatuses } from '../../schemas/tracker.ts';
import type { PageDeps } from '../page-deps.ts';
import { readFilters } from '../filters.ts';
import { idParam, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

/**
 * Trackers: every parcel the account follows in the mode, the labels it bought and the numbers it brought with POST
 * /trackers, and each one's journey. Read-only: the worker checks them, and the API starts and stops them.
 */
export function registerTrackers(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const route = routeOf(mode, 'trackers');

  app.get(route, async (request, reply) => {
    const filters = readFilters<TrackerFilters>(request, { status: trackingStatuses, carrier: carrierIds, tracking_number: null });
    const page = await filters.load((query) => trackersOf(db, services, scopeOf(request, mode), query));
    return sendPage(request, reply, mode, 'trackers', {
      title: 'Trackers',
      section: 'trackers',
      page,
      filters,
      statuses: trackingStatuses,
      carriers: carrierIds,
      errors: filters.errors,
    });
  });

  app.get(`${route}/:id`, async (request, reply) => {
    const tracker = await trackerOf(db, services, scopeOf(request, mode), idParam(request));
    return sendPage(request, reply, mode, 'tracker', { title: `Tracker ${tracker.tracking_number}`, section: 'trackers', tracker });
  });
}
