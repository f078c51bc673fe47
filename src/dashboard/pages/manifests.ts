import type { FastifyInstance } from 'fastify';
import { manifestOf, manifestsOf, todayFor, type ManifestFilters } from '../../domain/dashboard/account-view.ts';
import { shipmentIds, toManifest } from '../../domain/ops/manifests.ts';
import { carrierIds } from '../../config.ts';
import { ApiError } from '../../kernel/errors.ts';
import { carrierManifestStates } from '../../schemas/manifest.ts';
import { serviceContext } from '../../services.ts';
import type { PageDeps } from '../page-deps.ts';
import { readFilters } from '../filters.ts';
import { idParam, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

/** What each carrier's own forms are called where they are in the manifest's file. */
const formKinds: Record<string, string> = { usps_scan_form: 'USPS SCAN form', fedex_ground_close: 'FedEx Ground close' };

/**
 * Manifests: the end-of-day forms the account's keys made, a day at a time (today by default), with what each
 * carrier was told and its forms. Read-only: POST /manifests makes them.
 */
export function registerManifests(app: FastifyInstance, { services, mode }: PageDeps): void {
  if (!services.config.features.has('manifests')) return;
  const db = services.database.db;
  const route = routeOf(mode, 'manifests');

  app.get(route, async (request, reply) => {
    const scope = scopeOf(request, mode);
    const today = await todayFor(db, scope, services.clock.now());
    const filters = readFilters<ManifestFilters>(request, { ship_date: 'date', carrier: carrierIds, carrier_manifest: carrierManifestStates }, { ship_date: today });
    const page = await filters.load((query) => manifestsOf(serviceContext(services, request.id), scope, query));
    return sendPage(request, reply, mode, 'manifests', {
      title: 'Manifests',
      section: 'manifests',
      page,
      filters,
      today,
      carriers: carrierIds,
      states: carrierManifestStates,
      formKinds,
      errors: filters.errors,
    });
  });

  app.get(`${route}/:id`, async (request, reply) => {
    const row = await manifestOf(db, scopeOf(request, mode), idParam(request));
    const manifest = toManifest(serviceContext(services, request.id), row, (await shipmentIds(db, [row.id])).get(row.id)!);
    return sendPage(request, reply, mode, 'manifest', { title: `Manifest ${manifest.id}`, section: 'manifests', manifest, formKinds });
  });

  // The manifest's file as the dashboard shows it: behind the session, so it needs no signed link.
  app.get(`${route}/:id/form.pdf`, async (request, reply) => {
    const row = await manifestOf(db, scopeOf(request, mode), idParam(request));
    const pdf = await services.labels.get(row.id, 'pdf');
    if (!pdf) throw new ApiError('not_found', `The file of manifest ${row.id} is no longer kept`);
    return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${row.id}.pdf"`).send(pdf);
  });
}
