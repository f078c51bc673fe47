import type { Kysely } from 'kysely';
import { takeAccountTurn } from './account-turn.ts';
import type { ApiKeysTable, DB } from '../../db/schema.ts';
import { announceKeyChange } from '../../db/key-changes.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { generateKeySecret } from './api-key-format.ts';
import { type Mode, modes } from '../../kernel/mode.ts';
import type { Clock } from '../../kernel/clock.ts';
import { newId } from '../../kernel/ids.ts';
import { ApiError } from '../../kernel/errors.ts';
import { AccountError } from './accounts.ts';

export interface KeyAdmin {
  db: Kysely<DB>;
  kind: DatabaseKind;
  clock: Clock;
}

export interface CreatedKey {
  key: ApiKeysTable;
  /** The secret itself: shown once, never stored. */
  secret: string;
}

/**
 * Makes a key, unless the account holds `maxActiveKeys` unrevoked keys (of both modes) already: each key is a secret to
 * keep and a bucket to limit, and an account that made keys without end would have them without end.
 */
export async function createApiKey(admin: KeyAdmin, accountId: string, mode: Mode, maxActiveKeys: number, name?: string): Promise<CreatedKey> {
  if (!modes.includes(mode)) throw new AccountError(`mode must be test or live`);
  const now = admin.clock.now().toISOString();
  const s = generateKeySecret(mode);
  const key: ApiKeysTable = {
    id: newId('key'),
    account_id: accountId,
    mode,
    name: name ?? null,
    prefix: s.prefix,
    last4: s.last4,
    created_at: now,
    revoked_at: null,
  };
  await admin.db.transaction().execute(async (trx) => {
    // Two creations take turns, so that both cannot count the last free place.
    await takeAccountTurn(trx, accountId);
    const { active } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('active'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(active) >= maxActiveKeys) {
      throw new ApiError('api_key_limit_reached', `The account has ${Number(active)} active API keys, as many as it may (SHIPD_MAX_KEYS_PER_ACCOUNT): revoke one it no longer uses first`);
    }
    await trx.insertInto('api_keys').values(key).execute();
    await trx.insertInto('api_key_secrets').values({ hash: s.hash, key_id: key.id, created_at: now, expires_at: null }).execute();
    await announceKeyChange(trx, admin.kind);
  });
  return { key, secret: s.secret };
}

export async function listApiKeys(db: Kysely<DB>, accountId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').execute();
}

async function liveKey(db: Kysely<DB>, keyId: string): Promise<ApiKeysTable> {
  const key = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  if (!key) throw new AccountError(`no key ${keyId}`);
  if (key.revoked_at) throw new AccountError(`key ${keyId} was revoked at ${key.revoked_at}`);
  return key;
}

/** Why a revoked key's webhooks are disabled, as their `disabled_reason` says. */
export const revokedKeyReason = 'The API key that owns it was revoked';

/**
 * Revokes every secret of the key at once; the key's resources stay, readable by no one. Its webhooks are disabled
 * with it: the events still recorded for its orders (tracking goes on) must not reach a receiver nobody controls.
 */
export async function revokeApiKey(admin: KeyAdmin, keyId: string): Promise<{ webhooksDisabled: number }> {
  return admin.db.transaction().execute(async (trx) => {
    await liveKey(trx, keyId);
    const at = admin.clock.now().toISOString();
    await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).execute();
    const disabled = await trx
      .updateTable('webhooks')
      .set({ status: 'disabled', disabled_reason: revokedKeyReason, updated_at: at })
      .where('owner_key_id', '=', keyId)
      .where('status', '=', 'enabled')
      .executeTakeFirst();
    await announceKeyChange(trx, admin.kind);
    return { webhooksDisabled: Number(disabled.numUpdatedRows) };
  });
}

/**
 * Gives the key a new secret. The key keeps its id, and with it everything it owns; the current secret keeps
 * working for `graceMs` (0: stops now) so deployed clients can be switched without downtime.
 */
export async function rollApiKey(admin: KeyAdmin, keyId: string, graceMs: number): Promise<CreatedKey> {
  return admin.db.transaction().execute(async (trx) => {
    const key = await liveKey(trx, keyId);
    const now = admin.clock.now();
    const s = generateKeySecret(key.mode);
    const ends = new Date(now.getTime() + graceMs).toISOString();
    // Every older secret stops by then, including one still in an earlier roll's longer grace: a roll after a leak
    // must not leave the leaked secret working.
    await trx
      .updateTable('api_key_secrets')
      .set({ expires_at: ends })
      .where('key_id', '=', keyId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', ends)]))
      .execute();
    await trx.insertInto('api_key_secrets').values({ hash: s.hash, key_id: keyId, created_at: now.toISOString(), expires_at: null }).execute();
    await trx.updateTable('api_keys').set({ prefix: s.prefix, last4: s.last4 }).where('id', '=', keyId).execute();
    await announceKeyChange(trx, admin.kind);
    return { key: { ...key, prefix: s.prefix, last4: s.last4 }, secret: s.secret };
  });
}

/** Parses durations such as 24h, 30m, 90s, 2d or 0. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new AccountError(`"${text}" is not a duration such as 24h, 30m, 90s or 0`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 's'] ?? 1_000;
  return Number(match[1]) * unit;
}
