import type { FastifyInstance, FastifyRequest } from 'fastify';
import { carrierIds, type CarrierId } from '../../config.ts';
import { testOwnCarrier } from '../../domain/carrier-accounts/carrier-access.ts';
import { connectCarrier, disconnectCarrier, listCarrierAccounts } from '../../domain/carrier-accounts/carrier-accounts.ts';
import { mailerIdProblem } from '../../carriers/usps/mailer-ids.ts';
import { ApiError } from '../../kernel/errors.ts';
import { serviceContext } from '../../services.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, FormCheck, formErrors } from '../forms.ts';
import { pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

function carrierOf(request: FastifyRequest): CarrierId {
  const carrier = (request.params as { carrier: string }).carrier;
  if (!(carrierIds as readonly string[]).includes(carrier)) throw new ApiError('not_found', `No carrier ${carrier}`);
  return carrier as CarrierId;
}

/** The account's own carrier accounts: its live keys buy through them. Test mode uses the simulators and shows why. */
export function registerCarriers(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'carriers');
  const route = routeOf(mode, 'carriers');
  const blank = { carrier: 'ups', client_id: '', account_number: '', crid: '', mid: '' };
  const page = async (accountId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Carrier accounts',
    section: 'carriers' as const,
    accounts: mode === 'live' ? await listCarrierAccounts(db, accountId) : [],
    carriers: carrierIds,
    form: blank,
    ...extra,
  });

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'carriers', await page(scopeOf(request, mode).accountId)));
  if (mode === 'test') return;

  app.post(route, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    const form = {
      carrier: field(request, 'carrier'),
      client_id: field(request, 'client_id'),
      account_number: field(request, 'account_number'),
      crid: field(request, 'crid'),
      mid: field(request, 'mid'),
    };
    const clientSecret = field(request, 'client_secret');
    try {
      const check = new FormCheck();
      const carrier = carrierIds.find((c) => c === form.carrier);
      if (!carrier) check.fail('carrier', 'Choose UPS, USPS or FedEx');
      if (!form.client_id || form.client_id.length > 200) check.fail('client_id', 'Enter the client id of your carrier developer app');
      if (!clientSecret || clientSecret.length > 500) check.fail('client_secret', 'Enter the client secret of your carrier developer app');
      if (form.account_number.length > 50) check.fail('account_number', 'At most 50 characters');
      // USPS's payment authorization names the mailer by CRID and MID; the other carriers have no such ids.
      for (const kind of ['crid', 'mid'] as const) {
        if (!form[kind]) continue;
        if (carrier !== 'usps') check.fail(kind, 'Only USPS accounts have one: leave it empty');
        const problem = mailerIdProblem(kind, form[kind]);
        if (problem) check.fail(kind, `It ${problem}`);
      }
      check.done();
      await connectCarrier(db, services.clock, services.config.secret, accountId, carrier!, {
        clientId: form.client_id,
        clientSecret,
        ...(form.account_number && { accountNumber: form.account_number }),
        ...(form.crid && { crid: form.crid }),
        ...(form.mid && { mid: form.mid }),
      });
    } catch (err) {
      return sendPage(request, reply, mode, 'carriers', await page(accountId, { form, errors: formErrors(err, 'client_id') }), 400);
    }
    return redirectWith(reply, list, 'carrier_connected');
  });

  app.post(`${route}/:carrier/test`, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    const carrier = carrierOf(request);
    const result = await testOwnCarrier(serviceContext(services, request.id), accountId, carrier);
    const test = result.ok
      ? { carrier, ok: true, message: `${carrier.toUpperCase()} accepted the credentials and quoted ${result.value} rates for a sample parcel.` }
      : { carrier, ok: false, message: `${carrier.toUpperCase()} did not accept the test (${result.error.code}): ${result.error.detail}` };
    return sendPage(request, reply, mode, 'carriers', await page(accountId, { test }), result.ok ? 200 : 502);
  });

  app.get(`${route}/:carrier/disconnect`, async (request, reply) => {
    const carrier = carrierOf(request);
    return sendPage(request, reply, mode, 'confirm', {
      title: 'Disconnect carrier account',
      section: 'carriers',
      question: `Disconnect your own ${carrier.toUpperCase()} account?`,
      consequence: `Live labels of ${carrier.toUpperCase()} are then bought with the platform's account and charged as postage to the live payment method, if the platform has one.`,
      action: `${list}/${carrier}/disconnect`,
      button: 'Disconnect',
      cancel: list,
    });
  });

  app.post(`${route}/:carrier/disconnect`, async (request, reply) => {
    await disconnectCarrier(db, scopeOf(request, mode).accountId, carrierOf(request));
    return redirectWith(reply, list, 'carrier_disconnected');
  });
}
