import { hash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import { deleteExpiredRows } from '../../db/expired-rows.ts';
import type { DB, IdempotencyKeysTable } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { ApiError } from '../../kernel/errors.ts';

/** How long a stored answer is replayed. */
export const idempotencyTtlMs = 7 * 24 * 3_600_000;
/** By default, a claim not finished by then was abandoned (a crash) and another request may take it over. */
export const defaultClaimLeaseMs = 60_000;
/** How long a duplicate waits, by default, for the first request to finish before answering 409. */
export const defaultIdempotencyWaitMs = 15_000;

const headerPattern = /^[\x21-\x7e]([\x20-\x7e]{0,253}[\x21-\x7e])?$/;

export type IdempotencyScope = Pick<IdempotencyKeysTable, 'owner_key_id' | 'method' | 'path' | 'idem_key'>;

export interface IdempotencyClaim {
  /** The Idempotency-Key, as the client sent it. */
  key: string;
  /** Stores the answer, in the transaction that made the change when there is one. */
  complete(db: Kysely<DB>, status: number, contentType: string, body: string): Promise<void>;
  /** Gives the key back unanswered, so a retry runs the request again. */
  release(): Promise<void>;
}

/** Key order does not make two bodies different. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export function fingerprint(body: unknown): string {
  return hash('sha256', JSON.stringify(canonical(body ?? null)), 'hex');
}

export function parseIdempotencyHeader(raw: string | string[]): string {
  if (Array.isArray(raw)) throw new ApiError('invalid_idempotency_key', 'Send one Idempotency-Key header');
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!headerPattern.test(value)) {
    throw new ApiError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters, bare or in double quotes');
  }
  return value;
}

const scopeKey = (s: IdempotencyScope) => JSON.stringify([s.owner_key_id, s.method, s.path, s.idem_key]);

type Attempt = { kind: 'claimed' } | { kind: 'mismatch' } | { kind: 'running' } | { kind: 'done'; row: IdempotencyKeysTable };

export class IdempotencyStore {
  /** Wakes duplicates waiting in this process the moment the first request finishes. */
  private finished = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly waitForFirstMs = defaultIdempotencyWaitMs,
    private readonly claimLeaseMs = defaultClaimLeaseMs,
  ) {}

  /** The one row of a scope, to read, change or remove. */
  private where(db: Kysely<DB>, s: IdempotencyScope) {
    const scope = { owner_key_id: s.owner_key_id, method: s.method, path: s.path, idem_key: s.idem_key };
    return {
      update: db.updateTable('idempotency_keys').where((eb) => eb.and(scope)),
      select: db.selectFrom('idempotency_keys').selectAll().where((eb) => eb.and(scope)),
      delete: db.deleteFrom('idempotency_keys').where((eb) => eb.and(scope)),
    };
  }

  /** One try at the key: an atomic insert, never a read-then-write. */
  private async attempt(s: IdempotencyScope, print: string): Promise<Attempt> {
    const now = this.clock.now();
    const at = now.toISOString();
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({
        ...s,
        fingerprint: print,
        status: 'running',
        response_status: null,
        response_type: null,
        response_body: null,
        locked_until: new Date(now.getTime() + this.claimLeaseMs).toISOString(),
        created_at: at,
        expires_at: new Date(now.getTime() + idempotencyTtlMs).toISOString(),
      })
      .onConflict((oc) => oc.columns(['owner_key_id', 'method', 'path', 'idem_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed' };

    const q = this.where(this.db, s);
    const row = await q.select.executeTakeFirst();
    if (!row) return this.attempt(s, print);
    if (row.expires_at <= at) {
      // Past its 7 days the key is free again, whether or not the cleanup job has run yet.
      await q.delete.where('expires_at', '<=', at).execute();
      return this.attempt(s, print);
    }
    if (row.fingerprint !== print) return { kind: 'mismatch' };
    if (row.status === 'done') return { kind: 'done', row };
    if (row.locked_until <= at) {
      const taken = await q.update
        .set({ locked_until: new Date(now.getTime() + this.claimLeaseMs).toISOString() })
        .where('status', '=', 'running')
        .where('locked_until', '<=', at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed' };
    }
    return { kind: 'running' };
  }

  private wait(s: IdempotencyScope, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const key = scopeKey(s);
      const done = () => {
        clearTimeout(timer);
        this.finished.off(key, done);
        resolve();
      };
      // The poll covers a first request running in another process.
      const timer = setTimeout(done, ms);
      this.finished.on(key, done);
    });
  }

  /** Claims the key, or waits for the request holding it and returns that request's stored answer. */
  async claim(s: IdempotencyScope, print: string): Promise<{ claim: IdempotencyClaim } | { replay: IdempotencyKeysTable }> {
    const deadline = Date.now() + this.waitForFirstMs;
    let pause = 5;
    for (;;) {
      const a = await this.attempt(s, print);
      if (a.kind === 'claimed') return { claim: this.handle(s) };
      if (a.kind === 'done') return { replay: a.row };
      if (a.kind === 'mismatch') {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body; use a new key for a new request');
      }
      if (Date.now() >= deadline) {
        throw new ApiError('idempotency_key_in_use', 'The first request with this Idempotency-Key is still running; retry later for its answer');
      }
      await this.wait(s, pause);
      pause = Math.min(pause * 2, 100);
    }
  }

  private handle(s: IdempotencyScope): IdempotencyClaim {
    const key = scopeKey(s);
    return {
      key: s.idem_key,
      complete: async (db, status, contentType, body) => {
        await this.where(db, s)
          .update.set({ status: 'done', response_status: status, response_type: contentType, response_body: body })
          .execute();
        // Waiters re-read after the commit; waking them early only costs them one more look.
        setImmediate(() => this.finished.emit(key));
      },
      release: async () => {
        await this.where(this.db, s).delete.where('status', '=', 'running').execute();
        this.finished.emit(key);
      },
    };
  }

  /** The cleanup job: forget answers older than 7 days. */
  async deleteExpired(): Promise<number> {
    return deleteExpiredRows(this.db, 'idempotency_keys', this.clock.now().toISOString());
  }
}

