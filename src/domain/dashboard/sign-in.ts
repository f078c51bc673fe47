import { sql, type Kysely } from 'kysely';
import type { DashboardUsersTable, DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { maxEmailLength, maxPasswordLength, normalizeEmail } from './users.ts';
import { passwordDecoy, PasswordsBusy, verifyPassword } from './passwords.ts';

/**
 * Failed sign-ins are counted by email and client address (the address the HTTP layer names), whether or not a
 * user has the email, so that what is refused says nothing about who exists. A client's failures for an email form
 * a run while each comes within `failureWindowMs` of the one before.
 *
 * Nothing locks an email: a client that keeps failing for one waits longer and longer between tries, while its
 * owner, elsewhere, signs in as usual. Only when many clients together fail for one email (guessing spread over
 * many addresses) are everyone's tries for it spaced out, by seconds.
 */
export const failureWindowMs = 15 * 60_000;
/** Failures of one client for one email that cost it no wait. */
export const freeFailures = 5;
/** After them, the wait before the client's next try doubles from a second with each failure, up to this. */
export const maxClientWaitMs = 10 * 60_000;
/** Failures for one email from all clients within the window, past which its tries are spaced by `emailSpacingMs`. */
export const emailFailuresBeforeSpacing = 30;
export const emailSpacingMs = 2_000;

export type SignIn =
  | { ok: true; user: DashboardUsersTable }
  | { ok: false; reason: 'wrong' | 'too_long' | 'busy' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** The wait after a client's `failures`-th failure in a run. */
export function clientWaitMs(failures: number): number {
  return failures < freeFailures ? 0 : Math.min(maxClientWaitMs, 1_000 * 2 ** (failures - freeFailures));
}

/** How long this client must still wait before trying this email again; 0: it may try now. */
async function waitBeforeTry(db: Kysely<DB>, email: string, client: string, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - failureWindowMs).toISOString();
  const row = await db
    .selectFrom('dashboard_login_failures')
    .select([
      sql<number | string | null>`sum(failures)`.as('total'),
      sql<string | null>`max(last_failed_at)`.as('latest'),
      sql<number | null>`max(case when client = ${client} then failures end)`.as('own_failures'),
      sql<string | null>`max(case when client = ${client} then last_failed_at end)`.as('own_latest'),
    ])
    .where('email', '=', email)
    .where('last_failed_at', '>', windowStart)
    .executeTakeFirst();
  const until = (from: string | null | undefined, ms: number) => (from ? Date.parse(from) + ms - now.getTime() : 0);
  const own = until(row?.own_latest, clientWaitMs(Number(row?.own_failures ?? 0)));
  const everyone = Number(row?.total ?? 0) >= emailFailuresBeforeSpacing ? until(row?.latest, emailSpacingMs) : 0;
  return Math.max(0, own, everyone);
}

/** One statement counts the failure, so that concurrent tries cannot lose a count between a read and a write. */
async function countFailure(db: Kysely<DB>, email: string, client: string, now: Date): Promise<void> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - failureWindowMs).toISOString();
  await db
    .insertInto('dashboard_login_failures')
    .values({ email, client, failures: 1, last_failed_at: at })
    .onConflict((oc) =>
      oc.columns(['email', 'client']).doUpdateSet({
        // A run ends when the window passes without a failure; the next one starts afresh.
        failures: sql<number>`case when dashboard_login_failures.last_failed_at <= ${windowStart} then 1 else dashboard_login_failures.failures + 1 end`,
        last_failed_at: at,
      }),
    )
    .execute();
}

/**
 * Checks an email and password tried from `client`. Everything that can refuse the try without Argon2 does so first:
 * an email or password longer than any that can exist, and a try that comes before the client's or the email's wait
 * is over. An email without a user costs a decoy, never a hash.
 */
export async function signIn(db: Kysely<DB>, clock: Clock, attempt: { email: string; password: string; client: string }): Promise<SignIn> {
  const email = normalizeEmail(attempt.email);
  if (email.length > maxEmailLength || attempt.password.length > maxPasswordLength) return { ok: false, reason: 'too_long' };
  const wait = await waitBeforeTry(db, email, attempt.client, clock.now());
  if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: Math.ceil(wait / 1000) };
  // A disabled user is answered as an unknown email is: the form tells no one who exists.
  const user = await db.selectFrom('dashboard_users').selectAll().where('email', '=', email).where('disabled_at', 'is', null).executeTakeFirst();
  let matches: boolean;
  try {
    matches = user ? await verifyPassword(user.password_hash, attempt.password) : await passwordDecoy();
  } catch (err) {
    if (err instanceof PasswordsBusy) return { ok: false, reason: 'busy' };
    throw err;
  }
  if (matches && user) {
    // Only this client's count ends: another's failures for the email still cost that one its waits.
    await db.deleteFrom('dashboard_login_failures').where('email', '=', email).where('client', '=', attempt.client).execute();
    return { ok: true, user };
  }
  await countFailure(db, email, attempt.client, clock.now());
  return { ok: false, reason: 'wrong' };
}

/** Forgets the runs of failures that have ended: they cost no one a wait any more. */
export async function deleteEndedLoginFailures(db: Kysely<DB>, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - failureWindowMs).toISOString();
  const deleted = await db.deleteFrom('dashboard_login_failures').where('last_failed_at', '<=', windowStart).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
