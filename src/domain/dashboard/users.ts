import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DashboardUserRole, DashboardUsersTable, DB } from '../../db/schema.ts';
import { AccountError } from '../accounts/accounts.ts';
import type { Clock } from '../../kernel/clock.ts';
import { randomTimeKey } from '../../kernel/ids.ts';
import { hashPassword } from './passwords.ts';

export const minPasswordLength = 12;
export const maxPasswordLength = 1024;
/** The longest an address may be (RFC 5321's limit on a path, less its angle brackets). */
export const maxEmailLength = 254;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > maxEmailLength) throw new AccountError(`"${email}" is not an email address`);
}

export function checkPassword(password: string): void {
  if (password.length < minPasswordLength) throw new AccountError(`a password needs at least ${minPasswordLength} characters`);
  if (password.length > maxPasswordLength) throw new AccountError(`a password may have at most ${maxPasswordLength} characters`);
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
    password_hash: await hashPassword(password),
    role: role ?? (first ? 'owner' : 'member'),
    disabled_at: null,
    last_sign_in_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db.insertInto('dashboard_users').values(row).execute();
  return row;
}
