import type { FastifyRequest } from 'fastify';
import type { AccountScope } from '../domain/dashboard/account-view.ts';
import type { Mode } from '../kernel/mode.ts';

/** The account and mode a signed-in page acts for: the session's account, the mode of the page's path. */
export function scopeOf(request: FastifyRequest, mode: Mode): AccountScope {
  const session = request.dashboard!;
  return { accountId: session.account.id, plan: session.account.plan, mode };
}
