import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { generatePassword } from '../../domain/dashboard/users.ts';
import { accountUser, accountUsers, deleteUser, disableUser, enableUser, resetPassword, setRole, type UserAdmin, type UserChange } from '../../domain/dashboard/user-admin.ts';
import { ApiError } from '../../kernel/errors.ts';
import type { PageDeps } from '../page-deps.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { cookieOptions, sessionCookie } from '../session.ts';

/** Each change the page offers, behind a confirmation: what it asks, what follows, and what it runs. */
const changes = {
  disable: {
    title: 'Disable user',
    question: (who: string) => `Disable ${who}?`,
    consequence: 'They are signed out at once, wherever they are signed in, and cannot sign in until they are enabled again.',
    run: disableUser,
    notice: 'user_disabled',
  },
  enable: { title: 'Enable user', question: (who: string) => `Enable ${who}?`, consequence: 'They can sign in again with their password.', run: enableUser, notice: 'user_enabled' },
  delete: {
    title: 'Remove user',
    question: (who: string) => `Remove ${who}?`,
    consequence: 'They are signed out at once and removed from the account; the email can be given to a new user later.',
    run: deleteUser,
    notice: 'user_removed',
  },
  'make-owner': {
    title: 'Make owner',
    question: (who: string) => `Make ${who} an owner?`,
    consequence: 'Owners manage the users of the account on this page, as you do.',
    run: (admin: UserAdmin, id: string) => setRole(admin, id, 'owner'),
    notice: 'user_role_changed',
  },
  'make-member': {
    title: 'Make member',
    question: (who: string) => `Make ${who} a member?`,
    consequence: 'Members use every other page of the dashboard, but not this one.',
    run: (admin: UserAdmin, id: string) => setRole(admin, id, 'member'),
    notice: 'user_role_changed',
  },
} as const satisfies Record<string, { title: string; question: (who: string) => string; consequence: string; run: (admin: UserAdmin, id: string) => Promise<UserChange>; notice: string }>;
type Change = keyof typeof changes;

/** The page and its actions are the owners': the role is read with the session, so a change applies at once. */
function ownersAccount(request: FastifyRequest): string {
  const session = request.dashboard!;
  if (session.user.role !== 'owner') throw new ApiError('owner_required', 'Only an owner of this account can see and manage its users. Ask an owner, or whoever runs shipd.');
  return session.account.id;
}

export function registerUsers(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const admin: UserAdmin = { db, kind: services.database.kind, clock: services.clock };
  const list = pathOf(mode, 'users');
  const route = routeOf(mode, 'users');

  const listPage = async (request: FastifyRequest, accountId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Users',
    section: 'users' as const,
    users: await accountUsers(db, accountId),
    me: request.dashboard!.user.id,
    ...extra,
  });

  /** After a change to oneself that ends one's own session or access, the page one may still see. */
  const afterOwnChange = (reply: FastifyReply, change: Change): FastifyReply | undefined => {
    if (change === 'disable' || change === 'delete') {
      reply.clearCookie(sessionCookie, cookieOptions);
      return reply.redirect('/dashboard/login', 303);
    }
    if (change === 'make-member') return redirectWith(reply, pathOf(mode, 'keys'), changes[change].notice);
    return undefined;
  };

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'users', await listPage(request, ownersAccount(request))));

  app.get(`${route}/:id/reset-password`, async (request, reply) => {
    const user = await accountUser(db, ownersAccount(request), idParam(request));
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Reset password',
      section: 'users',
      question: `Give ${user.email} a new password?`,
      consequence: 'A new password is made and shown to you once, for you to pass on. Their old password stops working, and they are signed out at once, wherever they are signed in.',
      action: `${list}/${user.id}/reset-password`,
      button: 'Reset password',
      cancel: list,
    });
  });

  app.post(`${route}/:id/reset-password`, async (request, reply) => {
    const accountId = ownersAccount(request);
    const user = await accountUser(db, accountId, idParam(request));
    const password = generatePassword();
    await resetPassword(admin, user.id, password);
    const own = user.id === request.dashboard!.user.id;
    const note = own ? 'You are signed out: sign in again with it.' : 'Their sessions have ended.';
    return sendPage(request, reply, mode, 'users', await listPage(request, accountId, { created: { title: `New password for ${user.email}`, secret: password, id: user.id, note } }));
  });

  for (const change of Object.keys(changes) as Change[]) {
    const { title, question, consequence, run, notice } = changes[change];

    app.get(`${route}/:id/${change}`, async (request, reply) => {
      const user = await accountUser(db, ownersAccount(request), idParam(request));
      const own = user.id === request.dashboard!.user.id;
      return sendPage(request, reply, mode, 'confirm', {
        title,
        section: 'users',
        question: question(own ? `yourself (${user.email})` : user.email),
        consequence,
        action: `${list}/${user.id}/${change}`,
        button: title,
        cancel: list,
      });
    });

    app.post(`${route}/:id/${change}`, async (request, reply) => {
      const user = await accountUser(db, ownersAccount(request), idParam(request));
      await run(admin, user.id);
      return (user.id === request.dashboard!.user.id && afterOwnChange(reply, change)) || redirectWith(reply, list, notice);
    });
  }
}
