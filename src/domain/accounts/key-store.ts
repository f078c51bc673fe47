import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { KeyChangeWatcher } from '../../db/key-changes.ts';
import { checkKeyFormat, hashKeySecret, hasKeyShape } from './api-key-format.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Clock } from '../../kernel/clock.ts';
import { ApiError } from '../../kernel/errors.ts';

export interface Principal {
  keyId: string;
  accountId: string;
  mode: Mode;
  plan: 'api' | 'basic';
}

export type AuthFailure =
  | 'malformed_api_key'
  | 'invalid_api_key_checksum'
  | 'unknown_api_key'
  | 'revoked_api_key'
  | 'expired_api_key';

export type AuthResult = { ok: true; principal: Principal } | { ok: false; code: AuthFailure };

const details: Record<AuthFailure, string> = {
  malformed_api_key: 'API keys look like svc_test_… or svc_live_… followed by 32 letters and digits',
  invalid_api_key_checksum: 'The key has a typo: its last 6 characters do not match the rest. Copy it again.',
  unknown_api_key: 'No account has this API key',
  revoked_api_key: 'This API key was revoked; create a new one',
  expired_api_key: "This key's secret was replaced by a roll and its grace period is over; use the new secret",
};

type Entry = { found: false } | { found: true; principal: Principal; revoked: boolean; expiresAt: string | null };

const maxEntries = 10_000;

/** The principal of a key that may use the API, or the ApiError refusing it. */
function apiPrincipal(result: AuthResult): Principal {
  if (!result.ok) throw new ApiError(result.code, details[result.code]);
  if (result.principal.plan !== 'api') {
    throw new ApiError('plan_without_api_access', "API access is not part of this account's plan; upgrade the plan to use the API");
  }
  return result.principal;
}

/**
 * Resolves an API key secret to its principal. Answers are cached by hash, unknown keys included, so a
 * busy key costs no query; the whole cache is dropped whenever any process changes any key.
 */
export class KeyStore {
  private cache = new Map<string, Entry>();
  private cacheVersion: number | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly watcher: KeyChangeWatcher,
    private readonly clock: Clock,
  ) {}

  async authenticate(secret: string): Promise<AuthResult> {
    const known = this.known(secret);
    if (typeof known === 'string') return { ok: false, code: known };
    let entry = known.entry;
    if (!entry) {
      entry = await this.load(known.hash);
      if (known.version !== null) {
        if (this.cache.size >= maxEntries) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(known.hash, entry);
      }
    }
    return this.verdict(entry);
  }

  /**
   * What this process knows of a secret without asking the database: its refusal, or the cached entry (undefined
   * when the key must be read). The checksum is checked only when the cache has no entry: every entry's secret
   * passed it when first seen, so a busy key costs one hash a request.
   */
  private known(secret: string): AuthFailure | { hash: string; version: number | null; entry: Entry | undefined } {
    if (!hasKeyShape(secret)) return 'malformed_api_key';
    const hash = hashKeySecret(secret);
    const version = this.watcher.version();
    if (version === null || version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    const entry = version === null ? undefined : this.cache.get(hash);
    if (!entry) {
      const format = checkKeyFormat(secret);
      if (!format.ok) return format.reason;
    }
    return { hash, version, entry };
  }

  private verdict(entry: Entry): AuthResult {
    if (!entry.found) return { ok: false, code: 'unknown_api_key' };
    if (entry.revoked) return { ok: false, code: 'revoked_api_key' };
    if (entry.expiresAt !== null && entry.expiresAt <= this.clock.now().toISOString()) {
      return { ok: false, code: 'expired_api_key' };
    }
    return { ok: true, principal: entry.principal };
  }

  /** Moves whenever any process changes a key; null while this process cannot tell. */
  changeVersion(): number | null {
    return this.watcher.version();
  }

  /**
   * Waits until this process has heard of a key change made after `since` was read (on PostgreSQL the
   * notification trails the commit by a round trip), so a key just revoked here is refused by the next request.
   */
  async awaitChange(since: number | null, timeoutMs = 2_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (since !== null && this.watcher.version() === since && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
  }

  /** The caller behind a key that may use the API (the REST routes, the MCP tools), or the ApiError refusing it. */
  async principalFor(secret: string): Promise<Principal> {
    return apiPrincipal(await this.authenticate(secret));
  }

  /**
   * principalFor without waiting, when this process already knows the key (a busy key always is): the caller, or
   * undefined when the key must be read from the database. Throws the ApiError refusing a key it knows.
   */
  knownPrincipal(secret: string): Principal | undefined {
    const known = this.known(secret);
    if (typeof known === 'string') return apiPrincipal({ ok: false, code: known });
    return known.entry ? apiPrincipal(this.verdict(known.entry)) : undefined;
  }

  private async load(hash: string): Promise<Entry> {
    const row = await this.db
      .selectFrom('api_key_secrets as s')
      .innerJoin('api_keys as k', 'k.id', 's.key_id')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id as keyId', 'k.account_id as accountId', 'k.mode', 'k.revoked_at', 's.expires_at', 'a.plan'])
      .where('s.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return { found: false };
    return {
      found: true,
      principal: { keyId: row.keyId, accountId: row.accountId, mode: row.mode, plan: row.plan },
      revoked: row.revoked_at !== null,
      expiresAt: row.expires_at,
    };
  }
}
