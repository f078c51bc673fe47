import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asOwner, eventBodies, keyOf, keysOf, webhookOf, webhooksOf, type AccountScope } from '../../domain/dashboard/account-view.ts';
import { createWebhook, deleteWebhook, listDeliveries, retryDelivery, rotateWebhookSecret, testWebhook, toWebhook, updateWebhook } from '../../domain/webhooks/webhooks.ts';
import { subscribableEventTypes } from '../../schemas/webhook.ts';
import type { WebhookCreate } from '../../schemas/webhook.ts';
import { serviceContext } from '../../services.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, fields, FormCheck, formErrors } from '../forms.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

export function registerWebhooks(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'webhooks');
  const route = routeOf(mode, 'webhooks');
  const types = subscribableEventTypes(services.config.features);

  /** The webhook a path names, with a context acting as the key that owns it. */
  async function owned(request: FastifyRequest) {
    const scope = scopeOf(request, mode);
    const row = await webhookOf(db, scope, idParam(request));
    return { scope, row, ctx: asOwner(serviceContext(services, request.id), scope, row.owner_key_id) };
  }

  const listPage = async (scope: AccountScope, extra: Record<string, unknown> = {}) => {
    const all = await keysOf(db, scope);
    // The key in use first, and so chosen by default: the one that called the API last, else the newest.
    const keys = all.filter((k) => !k.revoked_at).sort((a, b) => (b.last_used_at ?? '').localeCompare(a.last_used_at ?? '') || b.created_at.localeCompare(a.created_at));
    return {
      title: 'Webhooks',
      section: 'webhooks' as const,
      webhooks: await webhooksOf(db, scope),
      keys,
      keyLabels: Object.fromEntries(all.map((k) => [k.id, `${k.name ? `${k.name} · ` : ''}${k.prefix}…${k.last4}`])),
      types,
      form: { url: '', description: '', events: [] as string[], key: keys[0]?.id ?? '' },
      ...extra,
    };
  };

  async function detailPage(request: FastifyRequest, extra: Record<string, unknown> = {}) {
    const { scope, row, ctx } = await owned(request);
    const cursor = (request.query as { cursor?: string }).cursor;
    const deliveries = await listDeliveries(ctx, row.id, { limit: 25, ...(cursor && { cursor }) });
    const bodies = await eventBodies(db, scope, deliveries.data.map((d) => d.event_id));
    const owner = await keyOf(db, scope, row.owner_key_id);
    return { title: 'Webhook', section: 'webhooks' as const, webhook: toWebhook(row), owner, deliveries, bodies, ...extra };
  }

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'webhooks', await listPage(scopeOf(request, mode))));

  app.post(route, async (request, reply) => {
    const scope = scopeOf(request, mode);
    const form = { url: field(request, 'url'), description: field(request, 'description'), events: fields(request, 'events'), key: field(request, 'key') };
    try {
      const check = new FormCheck();
      if (!form.url) check.fail('url', 'Enter the URL events are sent to');
      if (form.url.length > 2048) check.fail('url', 'A URL may have at most 2048 characters');
      if (form.description.length > 500) check.fail('description', 'A description may have at most 500 characters');
      const chosen = types.filter((t) => form.events.includes(t));
      if (chosen.length === 0) check.fail('events', 'Choose at least one event');
      const key = await keyOf(db, scope, form.key, true).catch(() => undefined);
      if (!key) check.fail('key', 'Choose the key whose events this webhook receives');
      check.done();
      const input: WebhookCreate = { url: form.url, events: chosen as WebhookCreate['events'], ...(form.description && { description: form.description }) };
      const created = await createWebhook(asOwner(serviceContext(services, request.id), scope, key!.id), input);
      const secret = { title: 'Signing secret of the new webhook', secret: created.secret, id: created.id, note: 'Verify every delivery with it (Standard Webhooks).' };
      return sendPage(request, reply, mode, 'webhooks', await listPage(scope, { created: secret, createdId: created.id }), 201);
    } catch (err) {
      return sendPage(request, reply, mode, 'webhooks', await listPage(scope, { form, errors: formErrors(err, 'url') }), 400);
    }
  });

  app.get(`${route}/:id`, async (request, reply) => sendPage(request, reply, mode, 'webhook', await detailPage(request)));

  app.post(`${route}/:id/test`, async (request, reply) => {
    const { row, ctx } = await owned(request);
    await testWebhook(ctx, row.id);
    return redirectWith(reply, `${list}/${row.id}`, 'webhook_test_sent');
  });

  app.post(`${route}/:id/deliveries/:delivery/retry`, async (request, reply) => {
    const { row, ctx } = await owned(request);
    await retryDelivery(ctx, row.id, (request.params as { delivery: string }).delivery);
    return redirectWith(reply, `${list}/${row.id}`, 'delivery_replayed');
  });

  app.post(`${route}/:id/status`, async (request, reply) => {
    const { row, ctx } = await owned(request);
    await updateWebhook(ctx, row.id, { status: field(request, 'status') === 'enabled' ? 'enabled' : 'disabled' });
    return redirectWith(reply, `${list}/${row.id}`, 'webhook_updated');
  });

  app.get(`${route}/:id/rotate`, async (request, reply) => {
    const { row } = await owned(request);
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Rotate signing secret',
      section: 'webhooks',
      question: `Give ${row.url} a new signing secret?`,
      consequence: 'For 24 hours every delivery is signed with both the old and the new secret, so you can switch your receiver over without losing any.',
      action: `${list}/${row.id}/rotate`,
      button: 'Rotate secret',
      cancel: `${list}/${row.id}`,
    });
  });

  app.post(`${route}/:id/rotate`, async (request, reply) => {
    const { row, ctx } = await owned(request);
    const rotated = await rotateWebhookSecret(ctx, row.id);
    const secret = { title: 'The new signing secret', secret: rotated.secret, id: rotated.id, note: 'The old secret keeps signing beside it for 24 hours.' };
    return sendPage(request, reply, mode, 'webhook', await detailPage(request, { created: secret }));
  });

  app.get(`${route}/:id/delete`, async (request, reply) => {
    const { row } = await owned(request);
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Remove webhook',
      section: 'webhooks',
      question: `Remove the webhook for ${row.url}?`,
      consequence: 'No more events are sent to it, and its delivery log is deleted.',
      action: `${list}/${row.id}/delete`,
      button: 'Remove webhook',
      cancel: `${list}/${row.id}`,
    });
  });

  app.post(`${route}/:id/delete`, async (request, reply) => {
    const { row, ctx } = await owned(request);
    await deleteWebhook(ctx, row.id);
    return redirectWith(reply, list, 'webhook_deleted');
  });
}
