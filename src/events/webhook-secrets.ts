import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { open, seal } from '../kernel/secret-box.ts';

/**
 * Webhook signing secrets are kept sealed under SHIPD_SECRET, as carrier credentials are: a copy of the database
 * alone cannot forge deliveries that receivers would trust. The delivery worker opens them to sign.
 */
const purpose = 'webhook signing secret';
const plainPrefix = 'whsec_';

export function sealWebhookSecret(shipdSecret: string, plain: string): string {
  return seal(shipdSecret, purpose, plain);
}

/** A new secret: the plaintext for the client, once, and the sealed value to store. */
export function newWebhookSecret(shipdSecret: string): { plain: string; sealed: string } {
  const plain = `${plainPrefix}${randomBytes(32).toString('base64')}`;
  return { plain, sealed: sealWebhookSecret(shipdSecret, plain) };
}

/** The secret to sign with, or null when it was sealed under another SHIPD_SECRET. */
export function openWebhookSecret(shipdSecret: string, sealed: string): string | null {
  return open(shipdSecret, purpose, sealed);
}

/**
 * Seals the secrets that versions before sealing stored as plaintext. Runs at every start; each row is changed only
 * if it still holds what was read, so processes starting together do not seal one twice.
 */
export async function sealPlaintextWebhookSecrets(db: Kysely<DB>, shipdSecret: string): Promise<number> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['id', 'secret', 'previous_secret'])
    .where((eb) => eb.or([eb('secret', 'like', `${plainPrefix}%`), eb('previous_secret', 'like', `${plainPrefix}%`)]))
    .execute();
  const sealIfPlain = (value: string | null) => (value?.startsWith(plainPrefix) ? sealWebhookSecret(shipdSecret, value) : value);
  for (const row of rows) {
    await db
      .updateTable('webhooks')
      .set({ secret: sealIfPlain(row.secret)!, previous_secret: sealIfPlain(row.previous_secret) })
      .where('id', '=', row.id)
      .where('secret', '=', row.secret)
      .where((eb) => (row.previous_secret === null ? eb('previous_secret', 'is', null) : eb('previous_secret', '=', row.previous_secret)))
      .execute();
  }
  return rows.length;
}

/**
 * Seals the secrets that versions before sealing kept as plaintext in the answers stored for Idempotency-Keys (a
 * webhook's creation or rotation), as the webhooks' own are sealed at start.
 */
export async function sealPlaintextStoredAnswers(db: Kysely<DB>, shipdSecret: string): Promise<number> {
  const rows = await db
    .selectFrom('idempotency_keys')
    .select(['owner_key_id', 'method', 'path', 'idem_key', 'response_body'])
    .where('response_body', 'like', `%"secret":"${plainPrefix}%`)
    .execute();
  for (const row of rows) {
    const answer = JSON.parse(row.response_body!) as { secret: string };
    const sealed = JSON.stringify({ ...answer, secret: sealWebhookSecret(shipdSecret, answer.secret) });
    await db
      .updateTable('idempotency_keys')
      .set({ response_body: sealed })
      .where((eb) => eb.and({ owner_key_id: row.owner_key_id, method: row.method, path: row.path, idem_key: row.idem_key, response_body: row.response_body }))
      .execute();
  }
  return rows.length;
}
