import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountsTable, DashboardUsersTable, DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { AccountError } from '../accounts/accounts.ts';

/** A session unused for this long ends. */
export const sessionIdleMs = 2 * 3_600_000;
/** A session ends this long after sign-in, however active. */
export const sessionMaxMs = 12 * 3_600_000;
/** last_seen_at is written at most this often, so browsing a page costs no write. */
const touchEveryMs = 60_000;

export interface DashboardSession {
  idHash: string;
  csrfToken: string;
  user: Pick<DashboardUsersTable, 'id' | 'email' | 'role'>;
  account: Pick<AccountsTable, 'id' | 'name' | 'plan'>;
}

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Starts a session for a user whose password was just checked, and answers its id, the cookie's value; only its hash
 * is stored. Refused if the user was disabled, removed or given a new password since that check.
 */
export async function startSession(db: Kysely<DB>, clock: Clock, user: Pick<DashboardUsersTable, 'id' | 'password_hash'>): Promise<{ id: string; maxAgeSeconds: number }> {
  const now = clock.now();
  const id = randomBytes(32).toString('base64url');
  // Sign-ins are rare next to page views: a good moment to forget sessions that have ended.
  await db
    .deleteFrom('dashboard_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', new Date(now.getTime() - sessionIdleMs).toISOString())]))
    .execute();
  await db.transaction().execute(async (trx) => {
    // Writing the user's row first locks it: a disable, removal or reset under way either ends before (and this finds
    // the user changed) or waits for this session and then ends it. Without the lock, a password checked just before
    // a reset could open a session after the reset ended the others.
    const current = await trx
      .updateTable('dashboard_users')
      .set({ last_sign_in_at: now.toISOString() })
      .where('id', '=', user.id)
      .where('password_hash', '=', user.password_hash)
      .where('disabled_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!current) throw new AccountError('the user was disabled, removed or given a new password while signing in; sign in again');
    await trx
      .insertInto('dashboard_sessions')
      .values({
        id_hash: hashId(id),
        user_id: user.id,
        csrf_token: randomBytes(32).toString('base64url'),
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + sessionMaxMs).toISOString(),
      })
      .execute();
  });
  return { id, maxAgeSeconds: sessionMaxMs / 1000 };
}

/** The live session a cookie value names, or undefined for a missing, unknown, idle or expired one. */
export async function findSession(db: Kysely<DB>, clock: Clock, id: string | undefined): Promise<DashboardSession | undefined> {
  if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const now = clock.now();
  const row = await db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('dashboard_users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['s.id_hash', 's.csrf_token', 's.last_seen_at', 's.expires_at', 'u.id as user_id', 'u.email', 'u.role', 'a.id as account_id', 'a.name as account_name', 'a.plan'])
    .where('s.id_hash', '=', hashId(id))
    // Disabling a user deletes their sessions in the same transaction; checked here too, whatever disabled them.
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const idleSince = new Date(now.getTime() - sessionIdleMs).toISOString();
  if (row.expires_at <= now.toISOString() || row.last_seen_at <= idleSince) return undefined;
  if (Date.parse(row.last_seen_at) + touchEveryMs <= now.getTime()) {
    await db.updateTable('dashboard_sessions').set({ last_seen_at: now.toISOString() }).where('id_hash', '=', row.id_hash).execute();
  }
  return {
    idHash: row.id_hash,
    csrfToken: row.csrf_token,
    user: { id: row.user_id, email: row.email, role: row.role },
    account: { id: row.account_id, name: row.account_name, plan: row.plan },
  };
}

export async function endSession(db: Kysely<DB>, idHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}
