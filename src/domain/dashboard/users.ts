import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { sql, type Kysely } from 'kysely';
import type { DashboardUserRole, DashboardUsersTable, DB } from '../../db/schema.ts';
import { AccountError } from '../accounts/accounts.ts';
import type { Clock } from '../../kernel/clock.ts';
import { randomTimeKey } from '../../kernel/ids.ts';

/** Failed sign-ins allowed for one email within the window before it is locked for the lockout. */
export const maxFailures = 5;
export const failureWindowMs = 15 * 60_000;
export const lockoutMs = 15 * 60_000;
export const minPasswordLength = 12;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new AccountError(`"${email}" is not an email address`);
}

export function checkPassword(password: string): void {
  if (password.length < minPasswordLength) throw new AccountError(`a password needs at least ${minPasswordLength} characters`);
  if (password.length > 1024) throw new AccountError('a password may have at most 1024 characters');
}

/** A password for a user made without one: 120 random bits, printable and easy to copy. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

export const userRoles: readonly DashboardUserRole[] = ['owner', 'member'];

/** Without a role, the account's first user is its owner and later ones are members. */
export async function createUser(db: Kysely<DB>, clock: Clock, accountId: string, email: string, password: string, role?: DashboardUserRole): Promise<DashboardUsersTable> {
  const normalized = normalizeEmail(email);
  checkEmail(normalized);
  checkPassword(password);
  if (role !== undefined && !userRoles.includes(role)) throw new AccountError(`a role is one of ${userRoles.join(', ')}`);
  const existing = await db.selectFrom('dashboard_users').select('id').where('email', '=', normalized).executeTakeFirst();
  if (existing) throw new AccountError(`a user with the email ${normalized} exists already (${existing.id})`);
  const first = !(await db.selectFrom('dashboard_users').select('id').where('account_id', '=', accountId).executeTakeFirst());
  const now = clock.now();
  const row: DashboardUsersTable = {
    id: `usr_${randomTimeKey(26, now.getTime())}`,
    account_id: accountId,
    email: normalized,
    password_hash: await hash(password),
    role: role ?? (first ? 'owner' : 'member'),
    disabled_at: null,
    last_sign_in_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db.insertInto('dashboard_users').values(row).execute();
  return row;
}

/** Verified against when the email has no user, so an unknown email costs what a wrong password does. */
let decoyHash: Promise<string> | undefined;

export type SignIn = { ok: true; user: DashboardUsersTable } | { ok: false; reason: 'wrong' | 'locked' };

/**
 * Checks an email and password. After `maxFailures` failures within `failureWindowMs` the email is locked for
 * `lockoutMs`, whether or not a user has it, and while locked even the right password is refused.
 */
export async function signIn(db: Kysely<DB>, clock: Clock, email: string, password: string): Promise<SignIn> {
  const normalized = normalizeEmail(email);
  // A disabled user is answered as an unknown email is: the form tells no one who exists.
  const user = await db.selectFrom('dashboard_users').selectAll().where('email', '=', normalized).where('disabled_at', 'is', null).executeTakeFirst();
  decoyHash ??= hash(generatePassword());
  const matches = (await verify(user?.password_hash ?? (await decoyHash), password).catch(() => false)) && user !== undefined;
  const now = clock.now();
  const failures = await db.selectFrom('dashboard_login_failures').selectAll().where('email', '=', normalized).executeTakeFirst();
  if (failures?.locked_until && failures.locked_until > now.toISOString()) return { ok: false, reason: 'locked' };
  if (matches) {
    if (failures) await db.deleteFrom('dashboard_login_failures').where('email', '=', normalized).execute();
    return { ok: true, user };
  }
  // One statement counts the failure, so concurrent guesses cannot slip past the limit between a read and a write.
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - failureWindowMs).toISOString();
  // A new count starts when the last one's window has passed, or its lockout has ended; a lockout under way stays.
  const restart = sql<boolean>`(dashboard_login_failures.locked_until is null and dashboard_login_failures.first_failed_at < ${windowStart})
    or dashboard_login_failures.locked_until <= ${at}`;
  const counted = await db
    .insertInto('dashboard_login_failures')
    .values({ email: normalized, failures: 1, first_failed_at: at, locked_until: null })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        failures: sql<number>`case when ${restart} then 1 else dashboard_login_failures.failures + 1 end`,
        first_failed_at: sql<string>`case when ${restart} then ${at} else dashboard_login_failures.first_failed_at end`,
        locked_until: sql<string | null>`case when ${restart} then null else dashboard_login_failures.locked_until end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  if (counted.failures < maxFailures) return { ok: false, reason: 'wrong' };
  await db
    .updateTable('dashboard_login_failures')
    .set({ locked_until: new Date(now.getTime() + lockoutMs).toISOString() })
    .where('email', '=', normalized)
    .where('locked_until', 'is', null)
    .execute();
  return { ok: false, reason: 'locked' };
}
