import type { FastifyInstance } from 'fastify';
import { clearPaymentMethod, getPaymentMethod, setPaymentMethod, testPaymentMethods } from '../../domain/accounts/billing.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, formErrors } from '../forms.ts';
import { pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

export function registerBilling(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'billing');
  const route = routeOf(mode, 'billing');
  const page = async (accountId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Billing',
    section: 'billing' as const,
    current: await getPaymentMethod(db, accountId, mode),
    choices: mode === 'test' ? testPaymentMethods : null,
    value: '',
    ...extra,
  });

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'billing', await page(scopeOf(request, mode).accountId)));

  app.post(route, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    const value = field(request, 'payment_method');
    try {
      await setPaymentMethod(db, services.clock, accountId, mode, value);
    } catch (err) {
      return sendPage(request, reply, mode, 'billing', await page(accountId, { value, errors: formErrors(err, 'payment_method') }), 400);
    }
    return redirectWith(reply, list, 'billing_saved');
  });

  app.get(`${route}/clear`, async (request, reply) =>
    sendPage(request, reply, mode, 'confirm', {
      title: 'Remove payment method',
      section: 'billing',
      question: `Remove the ${mode} payment method?`,
      consequence: `Labels with platform postage are then refused (402 payment_method_required) for every ${mode} key until a method is set again.`,
      action: `${list}/clear`,
      button: 'Remove payment method',
      cancel: list,
    }),
  );

  app.post(`${route}/clear`, async (request, reply) => {
    await clearPaymentMethod(db, scopeOf(request, mode).accountId, mode);
    return redirectWith(reply, list, 'billing_cleared');
  });
}
