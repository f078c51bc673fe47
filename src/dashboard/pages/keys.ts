import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keyOf, keysOf, type AccountScope } from '../../domain/dashboard/account-view.ts';
import { createApiKey, revokeApiKey, rollApiKey, type KeyAdmin } from '../../domain/accounts/api-keys.ts';
import { ApiError } from '../../kernel/errors.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, FormError, formErrors } from '../forms.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

/** The grace periods a roll offers: how long the replaced secret keeps working. */
const graces = [
  { value: '0', label: 'None: the old secret stops now', ms: 0 },
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '24h', label: '24 hours', ms: 86_400_000 },
  { value: '7d', label: '7 days', ms: 7 * 86_400_000 },
];

/** The API refuses every key of an account whose plan lacks API access, so the dashboard makes none for it. */
function refuseWithoutApi(scope: AccountScope): void {
  if (scope.plan !== 'api') throw new ApiError('plan_without_api_access', "This account's plan has no API access: the API would refuse the key. Keys can be revoked, not created or rolled.");
}

export function registerKeys(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const admin: KeyAdmin = { db, kind: services.database.kind, clock: services.clock };
  const list = pathOf(mode, 'keys');
  const route = routeOf(mode, 'keys');

  const listPage = async (request: FastifyRequest, scope: AccountScope, extra: Record<string, unknown> = {}) => ({
    title: 'API keys',
    section: 'keys' as const,
    keys: await keysOf(db, scope),
    apiAccess: scope.plan === 'api',
    name: '',
    ...extra,
  });

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'keys', await listPage(request, scopeOf(request, mode))));

  app.post(route, async (request, reply) => {
    const scope = scopeOf(request, mode);
    refuseWithoutApi(scope);
    const name = field(request, 'name');
    try {
      if (name.length > 100) throw new FormError('name', 'A name may have at most 100 characters');
      const created = await createApiKey(admin, scope.accountId, mode, services.config.maxKeysPerAccount, name || undefined);
      const data = await listPage(request, scope, { created: { title: 'Your new key', secret: created.secret, id: created.key.id } });
      return sendPage(request, reply, mode, 'keys', data, 201);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 400;
      return sendPage(request, reply, mode, 'keys', await listPage(request, scope, { name, errors: formErrors(err, 'name') }), status);
    }
  });

  app.get(`${route}/:id/revoke`, async (request, reply) => {
    const key = await keyOf(db, scopeOf(request, mode), idParam(request), true);
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Revoke key',
      section: 'keys',
      question: `Revoke the key ${key.prefix}…${key.last4}${key.name ? ` (${key.name})` : ''}?`,
      consequence:
        'Every request made with it is refused from the moment you confirm, in every shipd process, and its webhooks are disabled: none of its events is sent again. ' +
        'What it created stays, but no key can reach it through the API.',
      action: `${list}/${key.id}/revoke`,
      button: 'Revoke key',
      cancel: list,
    });
  });

  app.post(`${route}/:id/revoke`, async (request, reply) => {
    const key = await keyOf(db, scopeOf(request, mode), idParam(request), true);
    const since = services.keys.changeVersion();
    await revokeApiKey(admin, key.id);
    // "Revoked" on the page means refused by this process's next request; other processes hear of it within ms.
    await services.keys.awaitChange(since);
    return redirectWith(reply, list, 'key_revoked');
  });

  app.get(`${route}/:id/roll`, async (request, reply) => {
    const key = await keyOf(db, scopeOf(request, mode), idParam(request), true);
    return sendPage(request, reply, mode, 'roll', { title: 'Roll key', section: 'keys', key, graces, action: `${list}/${key.id}/roll`, cancel: list });
  });

  app.post(`${route}/:id/roll`, async (request, reply) => {
    const scope = scopeOf(request, mode);
    refuseWithoutApi(scope);
    const key = await keyOf(db, scope, idParam(request), true);
    const grace = graces.find((g) => g.value === field(request, 'grace'));
    if (!grace) {
      return sendPage(request, reply, mode, 'roll', { title: 'Roll key', section: 'keys', key, graces, action: `${list}/${key.id}/roll`, cancel: list, errors: { grace: 'Choose a grace period' } }, 400);
    }
    const since = services.keys.changeVersion();
    const rolled = await rollApiKey(admin, key.id, grace.ms);
    await services.keys.awaitChange(since);
    const note = grace.ms === 0 ? 'The old secret no longer works.' : `The old secret keeps working for ${grace.label}.`;
    return sendPage(request, reply, mode, 'keys', await listPage(request, scope, { created: { title: `New secret for ${key.id}`, secret: rolled.secret, id: key.id, note } }));
  });
}
