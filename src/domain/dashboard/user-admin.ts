import type { Kysely } from 'kysely';
import { takeAccountTurn } from '../accounts/account-turn.ts';
import type { DatabaseKind } from '../../db/database.ts';
import type { DashboardUserRole, DashboardUsersTable, DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { ApiError } from '../../kernel/errors.ts';
import { AccountError } from '../accounts/accounts.ts';
import { checkPassword, normalizeEmail, userRoles } from './users.ts';
import { hashPassword } from './passwords.ts';

/**
 * Disabling, removing, resetting and changing the role of dashboard users, for the operator's CLI and an account
 * owner's Users page. Each change ends the user's sessions in its own transaction: sessions are read from the
 * database on every request, so the next request of every shipd process sharing it is refused.
 */
export interface UserAdmin {
  db: Kysely<DB>;
  kind: DatabaseKind;
  clock: Clock;
}

export interface UserChange {
  /** The user as it was before the change. */
  user: DashboardUsersTable;
  sessionsEnded: number;
}

/** The user with this email; with an account, only if the user belongs to it. */
export async function userByEmail(db: Kysely<DB>, email: string, accountId?: string): Promise<DashboardUsersTable> {
  const normalized = normalizeEmail(email);
  let q = db.selectFrom('dashboard_users').selectAll().where('email', '=', normalized);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  const user = await q.executeTakeFirst();
  if (!user) throw new AccountError(`no user with the email ${normalized}${accountId === undefined ? '' : ` in account ${accountId}`}`);
  return user;
}

/** The account's users as its owners see them: everything but the password hash. */
export async function accountUsers(db: Kysely<DB>, accountId: string) {
  return db
    .selectFrom('dashboard_users')
    .select(['id', 'email', 'role', 'created_at', 'last_sign_in_at', 'disabled_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One of the account's users by id; another account's is not found. */
export async function accountUser(db: Kysely<DB>, accountId: string, userId: string): Promise<DashboardUsersTable> {
  const user = await db.selectFrom('dashboard_users').selectAll().where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  if (!user) throw new AccountError(`no user ${userId}`);
  return user;
}

/**
 * Runs a change of one user in a transaction whose first statement writes the user's row: on SQLite that takes the
 * write lock before anything is read (another process's write cannot slip in between), on PostgreSQL it locks the
 * row, so a sign-in of this user under way either ends first, and its session is ended here, or waits and finds
 * the user changed (see startSession).
 */
async function changeUser<T>(admin: UserAdmin, userId: string, change: (trx: Kysely<DB>, user: DashboardUsersTable) => Promise<T>): Promise<T> {
  return admin.db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('dashboard_users')
      .set({ updated_at: admin.clock.now().toISOString() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!user) throw new AccountError(`no user ${userId}`);
    return change(trx, user);
  });
}

/** Refuses a change that would leave the user's account without an enabled owner. */
async function keepAnOwner(trx: Kysely<DB>, user: DashboardUsersTable): Promise<void> {
  if (user.role !== 'owner' || user.disabled_at !== null) return;
  // These checks take turns: two owners removing each other at once would otherwise each see the other still there.
  await takeAccountTurn(trx, user.account_id);
  const another = await trx
    .selectFrom('dashboard_users')
    .select('id')
    .where('account_id', '=', user.account_id)
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('id', '!=', user.id)
    .executeTakeFirst();
  if (!another) throw new ApiError('last_owner', `${user.email} is the last enabled owner of account ${user.account_id}, and an account keeps one: make another user an owner first`);
}

async function endSessions(trx: Kysely<DB>, userId: string): Promise<number> {
  const ended = await trx.deleteFrom('dashboard_sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(ended.numDeletedRows);
}

/** The user can no longer sign in, and their sessions end now. */
export async function disableUser(admin: UserAdmin, userId: string): Promise<UserChange> {
  return changeUser(admin, userId, async (trx, user) => {
    await keepAnOwner(trx, user);
    if (user.disabled_at === null) await trx.updateTable('dashboard_users').set({ disabled_at: admin.clock.now().toISOString() }).where('id', '=', userId).execute();
    return { user, sessionsEnded: await endSessions(trx, userId) };
  });
}

export async function enableUser(admin: UserAdmin, userId: string): Promise<UserChange> {
  return changeUser(admin, userId, async (trx, user) => {
    await trx.updateTable('dashboard_users').set({ disabled_at: null }).where('id', '=', userId).execute();
    return { user, sessionsEnded: 0 };
  });
}

/** Removes the user and their sessions. */
export async function deleteUser(admin: UserAdmin, userId: string): Promise<UserChange> {
  return changeUser(admin, userId, async (trx, user) => {
    await keepAnOwner(trx, user);
    const sessionsEnded = await endSessions(trx, userId);
    await trx.deleteFrom('dashboard_users').where('id', '=', userId).execute();
    return { user, sessionsEnded };
  });
}

/** Gives the user a new password; sessions opened with the old one end now. */
export async function resetPassword(admin: UserAdmin, userId: string, password: string): Promise<UserChange> {
  checkPassword(password);
  // Hashed before the transaction: Argon2 takes tens of milliseconds, too long to hold the user's row or SQLite's lock.
  const passwordHash = await hashPassword(password);
  return changeUser(admin, userId, async (trx, user) => {
    await trx.updateTable('dashboard_users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    return { user, sessionsEnded: await endSessions(trx, userId) };
  });
}

/** Makes the user an owner or a member; their sessions go on, and pages check the role at every request. */
export async function setRole(admin: UserAdmin, userId: string, role: DashboardUserRole): Promise<UserChange> {
  if (!userRoles.includes(role)) throw new AccountError(`a role is one of ${userRoles.join(', ')}`);
  return changeUser(admin, userId, async (trx, user) => {
    if (role !== 'owner') await keepAnOwner(trx, user);
    await trx.updateTable('dashboard_users').set({ role }).where('id', '=', userId).execute();
    return { user, sessionsEnded: 0 };
  });
}
