import type { Kysely } from 'kysely';
import type { DashboardUserRole, DashboardUsersTable, DB } from '../db/schema.ts';
import { AccountError, findAccount } from '../domain/accounts/accounts.ts';
import { checkPassword, createUser, generatePassword } from '../domain/dashboard/users.ts';
import { accountUsers, deleteUser, disableUser, enableUser, resetPassword, setRole, userByEmail, type UserAdmin, type UserChange } from '../domain/dashboard/user-admin.ts';
import { parse, type Options } from './args.ts';
import { print, table } from './output.ts';

export const usersUsage =
  'shipd users create --account ID|NAME --email EMAIL [--role owner|member] | users list --account ID|NAME | ' +
  'users disable|enable|delete|reset-password --email EMAIL [--account ID|NAME] | users set-role --email EMAIL --role owner|member [--account ID|NAME] ' +
  '(passwords from SHIPD_USER_PASSWORD, else one is generated and printed once)';

const strings = (...names: string[]): Options => Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));

/** The string options of a command that takes nothing else. */
function options(args: string[], names: string[], required: string[]): Record<string, string | undefined> {
  const { values, positionals } = parse(args, strings(...names), required);
  if (positionals.length > 0) throw new AccountError(`usage: ${usersUsage}`);
  return values as Record<string, string | undefined>;
}

/** Never an argument: arguments end up in shell history and the process list. */
function newPassword(): { password: string; generated: boolean } {
  const given = process.env.SHIPD_USER_PASSWORD;
  if (given !== undefined) checkPassword(given);
  return given === undefined ? { password: generatePassword(), generated: true } : { password: given, generated: false };
}

/** The user --email names, within --account when it is given: a check that the right person is changed. */
async function target(db: Kysely<DB>, values: Record<string, string | undefined>): Promise<DashboardUsersTable> {
  const account = values.account === undefined ? undefined : await findAccount(db, values.account);
  return userByEmail(db, values.email!, account?.id);
}

const ended = (change: UserChange) => (change.sessionsEnded === 1 ? '1 session ended' : `${change.sessionsEnded} sessions ended`);

/** `shipd users …`: the people who sign in to the dashboard. */
export async function runUsers(admin: UserAdmin, action: string | undefined, args: string[]): Promise<void> {
  const db = admin.db;
  if (action === 'create') {
    const values = options(args, ['account', 'email', 'role'], ['account', 'email']);
    const account = await findAccount(db, values.account!);
    const { password, generated } = newPassword();
    const user = await createUser(db, admin.clock, account.id, values.email!, password, values.role as DashboardUserRole | undefined);
    print(generated ? `${user.id} ${user.email}\npassword (shown once): ${password}` : `${user.id} ${user.email}`);
    return;
  }
  if (action === 'list') {
    const values = options(args, ['account'], ['account']);
    const users = await accountUsers(db, (await findAccount(db, values.account!)).id);
    const lines = users.map((u) => [u.id, u.email, u.role, u.disabled_at ? `disabled ${u.disabled_at}` : 'active', u.last_sign_in_at ?? 'never', u.created_at]);
    print(users.length === 0 ? 'no users' : table([['ID', 'EMAIL', 'ROLE', 'STATUS', 'LAST SIGN-IN', 'CREATED'], ...lines]));
    return;
  }
  if (action === 'set-role') {
    const values = options(args, ['email', 'account', 'role'], ['email', 'role']);
    const user = await target(db, values);
    await setRole(admin, user.id, values.role as DashboardUserRole);
    print(`${user.id} ${user.email}: ${values.role}`);
    return;
  }
  if (action === 'reset-password') {
    const values = options(args, ['email', 'account'], ['email']);
    const user = await target(db, values);
    const { password, generated } = newPassword();
    const change = await resetPassword(admin, user.id, password);
    print(`${user.id} ${user.email}: new password; ${ended(change)}${generated ? `\npassword (shown once): ${password}` : ''}`);
    return;
  }
  const changes = { disable: disableUser, enable: enableUser, delete: deleteUser } as const;
  if (action === 'disable' || action === 'enable' || action === 'delete') {
    const values = options(args, ['email', 'account'], ['email']);
    const user = await target(db, values);
    const change = await changes[action](admin, user.id);
    const done = { disable: 'disabled', enable: 'enabled', delete: 'removed' }[action];
    print(`${user.id} ${user.email}: ${done}${action === 'enable' ? '' : `; ${ended(change)}`}`);
    return;
  }
  throw new AccountError(`usage: ${usersUsage}`);
}
