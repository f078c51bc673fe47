import type { FastifyInstance } from 'fastify';
import { clearPaymentMethod, getPaymentMethod, setPaymentMethod, testPaymentMethods } from '../../domain/billing/payment-methods.ts';
import { finishCardSetup, startCardSetup } from '../../domain/billing/card-setup.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, formErrors } from '../forms.ts';
import { pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

/**
 * Test mode picks one of the two test methods; live mode hands the card holder to Stripe's page to save a card
 * and reads back what Stripe saved, so no card number ever reaches shipd.
 */
export function registerBilling(app: FastifyInstance, { services, mode }: PageDeps): void {
  const deps = { db: services.database.db, clock: services.clock, config: services.config };
  const list = pathOf(mode, 'billing');
  const route = routeOf(mode, 'billing');
  const page = async (accountId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Billing',
    section: 'billing' as const,
    current: await getPaymentMethod(deps.db, accountId, mode),
    choices: mode === 'test' ? testPaymentMethods : null,
    stripe: services.config.stripe !== undefined,
    value: '',
    ...extra,
  });

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'billing', await page(scopeOf(request, mode).accountId)));

  if (mode === 'test') {
    app.post(route, async (request, reply) => {
      const { accountId } = scopeOf(request, mode);
      const value = field(request, 'payment_method');
      try {
        await setPaymentMethod(deps.db, deps.clock, accountId, mode, value);
      } catch (err) {
        return sendPage(request, reply, mode, 'billing', await page(accountId, { value, errors: formErrors(err, 'payment_method') }), 400);
      }
      return redirectWith(reply, list, 'billing_saved');
    });
  } else {
    app.post(`${route}/setup`, async (request, reply) => {
      const { accountId } = scopeOf(request, mode);
      const base = `${services.config.publicUrl}${list}`;
      try {
        return reply.redirect(await startCardSetup(deps, accountId, `${base}/return`, base), 303);
      } catch (err) {
        return sendPage(request, reply, mode, 'billing', await page(accountId, { errors: formErrors(err, 'card') }), 502);
      }
    });

    app.get(`${route}/return`, async (request, reply) => {
      const { accountId } = scopeOf(request, mode);
      const sessionId = String((request.query as Record<string, unknown>).session_id ?? '');
      try {
        await finishCardSetup(deps, accountId, sessionId);
      } catch (err) {
        return sendPage(request, reply, mode, 'billing', await page(accountId, { errors: formErrors(err, 'card') }), 400);
      }
      return redirectWith(reply, list, 'billing_saved');
    });
  }

  app.get(`${route}/clear`, async (request, reply) =>
    sendPage(request, reply, mode, 'confirm', {
      title: 'Remove payment method',
      section: 'billing',
      question: `Remove the ${mode} payment method?`,
      consequence: `Labels with platform postage are then refused (402 payment_method_required) for every ${mode} key until a method is set again.${mode === 'live' ? ' The card is detached from the account in Stripe too.' : ''}`,
      action: `${list}/clear`,
      button: 'Remove payment method',
      cancel: list,
    }),
  );

  app.post(`${route}/clear`, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    try {
      await clearPaymentMethod(deps, accountId, mode);
    } catch (err) {
      return sendPage(request, reply, mode, 'billing', await page(accountId, { errors: formErrors(err, 'card') }), 502);
    }
    return redirectWith(reply, list, 'billing_cleared');
  });
}
