import type { Kysely } from 'kysely';
import type { DB, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.ts';
import { checkWebhookUrl } from '../../events/address-guard.ts';
import type { NewWebhookSecret, Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate } from '../../schemas/webhook.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { recordEvent } from './events.ts';
import { newId } from '../../kernel/ids.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { inTransaction } from '../core/transaction.ts';
import { newWebhookSecret } from '../../events/webhook-secrets.ts';
import { newDelivery } from '../../events/fan-out.ts';

/** How long the secret before a rotation keeps signing, so receivers can switch without losing deliveries. */
export const rotationOverlapMs = 24 * 3_600_000;

export function toWebhook(row: WebhooksTable): Webhook {
  return {
    id: row.id,
    object: 'webhook',
    url: row.url,
    events: JSON.parse(row.events),
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: row.previous_secret_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function allowedUrl(ctx: Context, raw: string): Promise<string> {
  const checked = await checkWebhookUrl(raw, { allowInsecure: ctx.config.webhooksAllowInsecure, ports: ctx.config.webhookPorts });
  if (!checked.ok) throw new ApiError('webhook_url_not_allowed', checked.reason, [{ in: 'body', pointer: '/url', detail: checked.reason }]);
  return checked.url;
}

export async function ownWebhookRow(db: Kysely<DB>, ctx: Context, id: string): Promise<WebhooksTable> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No webhook ${id}`);
  return row;
}

export async function createWebhook(ctx: Context, input: WebhookCreate): Promise<NewWebhookSecret> {
  const url = await allowedUrl(ctx, input.url);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const secret = newWebhookSecret(ctx.config.secret);
  const row: WebhooksTable = {
    id: newId('whk', now.getTime()),
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode: ctx.principal.mode,
    url,
    events: JSON.stringify(input.events),
    description: input.description ?? null,
    secret: secret.sealed,
    previous_secret: null,
    previous_secret_expires_at: null,
    status: 'enabled',
    disabled_reason: null,
    failing_since: null,
    created_at: at,
    updated_at: at,
  };
  await ctx.db.insertInto('webhooks').values(row).execute();
  return { ...toWebhook(row), secret: secret.plain, secret_withheld: null };
}

export async function listWebhooks(ctx: Context, query: ListInput): Promise<Page<Webhook>> {
  return fetchPage(ctx.db.selectFrom('webhooks').selectAll().where('owner_key_id', '=', ctx.principal.keyId), query, 'whk', toWebhook);
}

export async function getWebhook(ctx: Context, id: string): Promise<Webhook> {
  return toWebhook(await ownWebhookRow(ctx.db, ctx, id));
}

/** Changes the URL, events or description, or enables a disabled webhook (its failure streak starts over). */
export async function updateWebhook(ctx: Context, id: string, patch: WebhookUpdate): Promise<Webhook> {
  const row = await ownWebhookRow(ctx.db, ctx, id);
  const at = ctx.clock.now().toISOString();
  const changes: Partial<WebhooksTable> = { updated_at: at };
  if (patch.url !== undefined) changes.url = await allowedUrl(ctx, patch.url);
  if (patch.events !== undefined) changes.events = JSON.stringify(patch.events);
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.status === 'enabled' && row.status === 'disabled') {
    // The dashboard acts as the owning key even once it is revoked; a revoked key's webhooks stay off.
    const key = await ctx.db.selectFrom('api_keys').select('revoked_at').where('id', '=', row.owner_key_id).executeTakeFirst();
    if (key?.revoked_at) throw new ApiError('webhook_disabled', `Webhook ${row.id} belongs to a key revoked at ${key.revoked_at}: it stays disabled`);
    Object.assign(changes, { status: 'enabled', disabled_reason: null, failing_since: null });
  }
  if (patch.status === 'disabled' && row.status === 'enabled') Object.assign(changes, { status: 'disabled', disabled_reason: 'Disabled by the API' });
  await ctx.db.updateTable('webhooks').set(changes).where('id', '=', row.id).execute();
  return toWebhook({ ...row, ...changes });
}

async function removeWebhooks(trx: Kysely<DB>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('webhook_attempts').where('webhook_id', 'in', ids).execute();
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', ids).execute();
  await trx.deleteFrom('webhooks').where('id', 'in', ids).execute();
}

/** Removes the webhook, its pending deliveries and its delivery log. */
export async function deleteWebhook(ctx: Context, id: string): Promise<Webhook> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await ownWebhookRow(trx, ctx, id);
    await removeWebhooks(trx, [row.id]);
    return toWebhook(row);
  });
}

/** For clients that only kept the URL: removes every webhook of the key registered with it. */
export async function deleteWebhooksByUrl(ctx: Context, url: string): Promise<Page<Webhook>> {
  return inTransaction(ctx.db, async (trx) => {
    let normalized = url;
    try {
      normalized = new URL(url).href;
    } catch {
      // Not a URL: it can match only a stored URL spelled exactly so, which is none.
    }
    const rows = await trx
      .selectFrom('webhooks')
      .selectAll()
      .where('owner_key_id', '=', ctx.principal.keyId)
      .where('url', 'in', [...new Set([url, normalized])])
      .orderBy('id', 'desc')
      .execute();
    if (rows.length === 0) throw new ApiError('not_found', `No webhook of this key has the URL ${url}`);
    await removeWebhooks(trx, rows.map((r) => r.id));
    return { object: 'list', data: rows.map(toWebhook), has_more: false, next_cursor: null };
  });
}

/** A new secret; the old one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(ctx: Context, id: string): Promise<NewWebhookSecret> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await ownWebhookRow(trx, ctx, id);
    const now = ctx.clock.now();
    const secret = newWebhookSecret(ctx.config.secret);
    const rotated: WebhooksTable = {
      ...row,
      secret: secret.sealed,
      previous_secret: row.secret,
      previous_secret_expires_at: new Date(now.getTime() + rotationOverlapMs).toISOString(),
      updated_at: now.toISOString(),
    };
    await trx
      .updateTable('webhooks')
      .set({ secret: rotated.secret, previous_secret: rotated.previous_secret, previous_secret_expires_at: rotated.previous_secret_expires_at, updated_at: rotated.updated_at })
      .where('id', '=', row.id)
      .execute();
    return { ...toWebhook(rotated), secret: secret.plain, secret_withheld: null };
  });
}

function toAttempt(a: WebhookAttemptsTable): WebhookDelivery['attempts'][number] {
  return {
    attempt: a.attempt,
    attempted_at: a.attempted_at,
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    error: a.error,
    response_excerpt: a.response_excerpt,
    next_attempt_at: a.next_attempt_at,
  };
}

function toDelivery(row: WebhookDeliveriesTable, attempts: WebhookAttemptsTable[]): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    delivered_at: row.delivered_at,
    attempts: attempts.map(toAttempt),
    created_at: row.created_at,
  };
}

async function withAttempts(db: Kysely<DB>, rows: WebhookDeliveriesTable[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', rows.map((r) => r.id))
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  const byDelivery = new Map<string, WebhookAttemptsTable[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((r) => toDelivery(r, byDelivery.get(r.id) ?? []));
}

export async function listDeliveries(ctx: Context, webhookId: string, query: ListInput & { status?: WebhookDeliveriesTable['status'] }): Promise<Page<WebhookDelivery>> {
  const webhook = await ownWebhookRow(ctx.db, ctx, webhookId);
  let q = ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhook.id);
  if (query.status) q = q.where('status', '=', query.status);
  const page = await fetchPage(q, query, 'dlv', (row) => row);
  return { ...page, data: await withAttempts(ctx.db, page.data) };
}

function requireEnabled(row: WebhooksTable): void {
  if (row.status === 'disabled') throw new ApiError('webhook_disabled', `Webhook ${row.id} is disabled (${row.disabled_reason ?? 'no reason recorded'}); PATCH it with status "enabled" first`);
}

/** Sends a delivery again now, whatever became of it: a replay for a receiver that lost it, or a nudge for one in backoff. */
export async function retryDelivery(ctx: Context, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
  return inTransaction(ctx.db, async (trx) => {
    const webhook = await ownWebhookRow(trx, ctx, webhookId);
    requireEnabled(webhook);
    const row = await trx.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).where('webhook_id', '=', webhook.id).executeTakeFirst();
    if (!row) throw new ApiError('not_found', `Webhook ${webhook.id} has no delivery ${deliveryId}`);
    const at = ctx.clock.now().toISOString();
    const again: WebhookDeliveriesTable = { ...row, status: 'pending', next_attempt_at: at, updated_at: at };
    await trx.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: at, updated_at: at }).where('id', '=', row.id).execute();
    return (await withAttempts(trx, [again]))[0]!;
  });
}

/** Sends a `webhook.test` event to this webhook alone, through the same signing, retries and log as any other. */
export async function testWebhook(ctx: Context, id: string): Promise<WebhookDelivery> {
  return inTransaction(ctx.db, async (trx) => {
    const webhook = await ownWebhookRow(trx, ctx, id);
    requireEnabled(webhook);
    const now = ctx.clock.now();
    const at = now.toISOString();
    const ping = { id: webhook.id, object: 'webhook', url: webhook.url, message: 'A test event from shipd: your endpoint is reachable and verifies signatures' };
    // Marked dispatched at once: the fan-out must not send it to the key's other webhooks.
    const eventId = await recordEvent(trx, ctx, 'webhook.test', ping, at, at);
    const row = newDelivery(webhook, eventId, 'webhook.test', now);
    await trx.insertInto('webhook_deliveries').values(row).execute();
    return toDelivery(row, []);
  });
}
