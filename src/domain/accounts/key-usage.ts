import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';

/** How stale a key's "last used" may be: each process writes it at most this often per key. */
export const keyUsageResolutionMs = 60_000;

/**
 * Records when each API key was last used, for the dashboard. Authentication reads keys from a cache, so this
 * must not add a write to every request: a key's time is written on its first use in a minute, off the request.
 */
export class KeyUsage {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {}

  note(keyId: string): void {
    const now = this.clock.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now.getTime() - last < keyUsageResolutionMs) return;
    this.written.set(keyId, now.getTime());
    if (this.written.size > 100_000) this.written.clear();
    const at = now.toISOString();
    this.db
      .insertInto('api_key_usage')
      .values({ key_id: keyId, last_used_at: at })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ last_used_at: at }).where('api_key_usage.last_used_at', '<', at))
      .execute()
      .catch(this.onError);
  }
}
