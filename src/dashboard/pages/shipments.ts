import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asOwner, labelTrackerOf, lastTracker, shipmentOf, shipmentsOf } from '../../domain/dashboard/account-view.ts';
import { ApiError } from '../../kernel/errors.ts';
import { labelBytes, servableFormats } from '../../domain/label-files/label-bytes.ts';
import { toShipment } from '../../domain/shipments/shipments.ts';
import { refreshTracking } from '../../domain/tracking/tracking.ts';
import { voidLabel } from '../../domain/shipments/void.ts';
import { carrierIds } from '../../config.ts';
import { labelContentTypes } from '../../labels/label-data.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import type { Shipment } from '../../schemas/shipment.ts';
import { serviceContext } from '../../services.ts';
import type { PageDeps } from '../page-deps.ts';
import { readFilters } from '../filters.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

const statuses = ['purchased', 'voided', 'void_pending'] as const;
const formats: readonly LabelFormat[] = ['pdf', 'png', 'zpl'];
/** The forms' names as the carriers print them. */
const documentNames: Record<string, string> = { cn22: 'CN 22', cn23: 'CN 23', commercial_invoice: 'Commercial invoice' };

export function registerShipments(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'shipments');
  const route = routeOf(mode, 'shipments');

  async function shipmentPage(request: FastifyRequest, extra: Record<string, unknown> = {}) {
    const scope = scopeOf(request, mode);
    const row = await shipmentOf(db, scope, idParam(request));
    const ctx = serviceContext(services, request.id);
    return {
      title: `Shipment ${row.tracking_number}`,
      section: 'shipments' as const,
      shipment: toShipment(ctx, row),
      tracker: await lastTracker(db, scope, row.id),
      trackerId: await labelTrackerOf(db, scope, row.id),
      formats: servableFormats(row),
      documentNames,
      ...extra,
    };
  }

  app.get(route, async (request, reply) => {
    const filters = readFilters<{ status?: Shipment['status']; carrier?: string; tracking_number?: string }>(request, {
      status: statuses,
      carrier: carrierIds,
      tracking_number: null,
    });
    const page = await filters.load((query) => shipmentsOf(serviceContext(services, request.id), scopeOf(request, mode), query));
    return sendPage(request, reply, mode, 'shipments', {
      title: 'Shipments',
      section: 'shipments',
      page,
      filters,
      statuses,
      carriers: carrierIds,
      errors: filters.errors,
    });
  });

  app.get(`${route}/:id`, async (request, reply) => sendPage(request, reply, mode, 'shipment', await shipmentPage(request)));

  // The label as the dashboard shows it: behind the session, so it needs no signed label URL.
  app.get(`${route}/:id/label/:format`, async (request, reply) => {
    const format = (request.params as { format: string }).format as LabelFormat;
    if (!formats.includes(format)) throw new ApiError('not_found', 'Labels come as pdf, png or zpl');
    const row = await shipmentOf(db, scopeOf(request, mode), idParam(request));
    if (row.status !== 'purchased') throw new ApiError('label_voided', 'This label was voided; printing it would ship an unpaid parcel');
    const bytes = await labelBytes(serviceContext(services, request.id), row, format);
    return reply
      .type(labelContentTypes[format])
      .header('Content-Disposition', `${format === 'png' ? 'inline' : 'attachment'}; filename="${row.id}.${format}"`)
      .send(bytes);
  });

  app.post(`${route}/:id/track`, async (request, reply) => {
    const row = await shipmentOf(db, scopeOf(request, mode), idParam(request));
    try {
      await refreshTracking(serviceContext(services, request.id), row);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return sendPage(request, reply, mode, 'shipment', await shipmentPage(request, { actionError: err.message }), err.status);
    }
    return redirectWith(reply, `${list}/${row.id}`, 'tracking_checked');
  });

  app.get(`${route}/:id/void`, async (request, reply) => {
    const row = await shipmentOf(db, scopeOf(request, mode), idParam(request));
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Void label',
      section: 'shipments',
      question: `Void the ${row.carrier.toUpperCase()} label ${row.tracking_number}?`,
      consequence:
        mode === 'live'
          ? 'The carrier is asked to cancel it and the postage is refunded; the order can then be bought another label. A label the carrier has scanned can no longer be voided.'
          : 'The postage is refunded (nothing was charged in test mode) and the order can be bought another label.',
      action: `${list}/${row.id}/void`,
      button: 'Void label',
      cancel: `${list}/${row.id}`,
    });
  });

  app.post(`${route}/:id/void`, async (request, reply) => {
    const scope = scopeOf(request, mode);
    const row = await shipmentOf(db, scope, idParam(request));
    try {
      await voidLabel(asOwner(serviceContext(services, request.id), scope, row.owner_key_id), row.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return sendPage(request, reply, mode, 'shipment', await shipmentPage(request, { actionError: err.message }), err.status);
    }
    return redirectWith(reply, `${list}/${row.id}`, 'shipment_voided');
  });
}
