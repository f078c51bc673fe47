import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts } from '../contracts/check.ts';
import { cancelPaymentIntent, capturePaymentIntent, createPaymentIntent, listPaymentIntents, retrievePaymentIntent } from '../contracts/stripe/payment-intents.ts';
import { createCheckoutSession, retrieveCheckoutSession, retrieveSetupIntent } from '../contracts/stripe/checkout.ts';
import { createCustomer, retrieveCustomer, updateCustomer } from '../contracts/stripe/customers.ts';
import { attachPaymentMethod, detachPaymentMethod, retrievePaymentMethod } from '../contracts/stripe/payment-methods.ts';
import { createRefund, listRefunds } from '../contracts/stripe/refunds.ts';
import { testCards } from './stripe-cards.ts';
import { deliver, stripeEvent, type Delivery } from './stripe-events.ts';
import { contractError, parseForm, type Form, type StripeError } from './stripe-form.ts';
import { StripeAccount, type Answer, type StripeObject } from './stripe-state.ts';
import { readText, sendJson, serve } from './server.ts';

// A local Stripe for shipd's billing: the API operations shipd uses (test/contracts/stripe/ lists them), each
// request held against our schemas of Stripe's published contract and refused in Stripe's error format when it
// breaks them; idempotency as Stripe documents it; Checkout's hosted page; signed webhook events; and faults on
// demand (a connection cut before or after the work, an answer that never comes, Stripe's own 500).
// It runs in the test's process, so tests steer it directly even when shipd runs as a child process.

/** A request as the fake received it: the form is the parsed body (the query for a GET). */
export interface StripeCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  form: Form;
}

/** Which requests a fault hits: the method (any when left out), the path (exact, or a pattern), how many times (1). */
export interface FaultMatch {
  method?: 'GET' | 'POST';
  path: string | RegExp;
  times?: number;
}

/** One charge's money, for invariants such as "captured less refunded, per shipment". */
export interface ChargeSummary {
  paymentIntent: string;
  status: string;
  customer: string | null;
  paymentMethod: string | null;
  amount: number;
  captured: number;
  refunded: number;
  metadata: Record<string, string>;
}

export interface FakeStripe {
  /** The base for STRIPE_BASE_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  calls: StripeCall[];
  /** Every event posted to the webhook URL, in order. */
  deliveries: Delivery[];
  close(): Promise<void>;
  customers(): StripeObject[];
  paymentMethods(): StripeObject[];
  paymentIntents(): StripeObject[];
  refunds(): StripeObject[];
  checkoutSessions(): StripeObject[];
  setupIntents(): StripeObject[];
  charges(): ChargeSummary[];
  /**
   * The card holder finishing the hosted page with a test card: saves the card to the session's customer through
   * a succeeded SetupIntent, completes the session, posts checkout.session.completed and setup_intent.succeeded to
   * the webhook URL when one is set, and gives the success_url with {CHECKOUT_SESSION_ID} filled in. A card that
   * declines throws with the decline message and leaves the session open.
   */
  completeCheckout(sessionId: string, testCard?: string): Promise<string>;
  setWebhookUrl(url: string | undefined): void;
  /** Posts a signed event with `object` as data.object; throws when no webhook URL is set. */
  sendEvent(type: string, object: unknown, previousAttributes?: Record<string, unknown>): Promise<Delivery>;
  /** The holder removing a saved card (from the Stripe dashboard, say): detaches it and posts payment_method.detached. */
  detachPaymentMethod(paymentMethod: string): Promise<Delivery | undefined>;
  /** A card's new expiry date, posted as payment_method.automatically_updated (the network's updater) or payment_method.updated. */
  updateCardExpiry(paymentMethod: string, expMonth: number, expYear: number, type?: 'payment_method.automatically_updated' | 'payment_method.updated'): Promise<Delivery | undefined>;
  /** Makes a saved card behave from now on as another test card (`pm_card_chargeDeclinedInsufficientFunds`, say). */
  setCardBehaviour(paymentMethod: string, testCard: string): void;
  /**
   * Cuts the connection of the next matching request without an answer: 'before' the work is done, or 'after' it
   * (the charge made and remembered under its Idempotency-Key). With `answer: 'api_error'` it answers Stripe's 500
   * instead, which Stripe keeps under the Idempotency-Key like any answer.
   */
  failNext(fault: FaultMatch & { when: 'before' | 'after'; answer?: 'cut' | 'api_error' }): void;
  /** The next matching request is never answered (until close): 'before' the work is done (the default), or 'after' it. */
  hangNext(fault: FaultMatch & { when?: 'before' | 'after' }): void;
}

interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  contract: TSchema;
  run(id: string, form: Form): Answer | StripeObject;
}

interface Fault {
  match: FaultMatch;
  left: number;
  when: 'before' | 'after';
  answer: 'cut' | 'api_error' | 'hang';
}

interface Remembered {
  fingerprint: string;
  at: number;
  requestId: string;
  answer?: Answer;
}

/** How long Stripe keeps an Idempotency-Key: "at least 24 hours" (docs.stripe.com/api/idempotent_requests). */
const keyLifetimeMs = 24 * 3600 * 1000;

const isAnswer = (r: Answer | StripeObject): r is Answer => 'body' in r && !('object' in r);
const apiError: StripeError = { type: 'api_error', message: 'An unknown error occurred' };

function secretKeyOf(req: IncomingMessage): string | undefined {
  const auth = String(req.headers.authorization ?? '');
  if (auth.startsWith('Bearer ')) return auth.slice(7).trim();
  if (auth.startsWith('Basic ')) return Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const canonical = (value: unknown): string =>
  value !== null && typeof value === 'object'
    ? Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
    : JSON.stringify(value);

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeStripe(options: { now?: () => number; extraSecretKeys?: string[] } = {}): Promise<FakeStripe> {
  const now = options.now ?? Date.now;
  const secretKey = `sk_test_fake_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
  const secretKeys = new Set([secretKey, ...(options.extraSecretKeys ?? [])]);
  const remembered = new Map<string, Remembered>();
  const faults: Fault[] = [];
  const hanging = new Set<ServerResponse>();
  const calls: StripeCall[] = [];
  const deliveries: Delivery[] = [];
  let webhookUrl: string | undefined;

  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/customers$/, contract: createCustomer, run: (_, f) => account.createCustomer(f) },
    { method: 'POST', path: /^\/v1\/customers\/([^/]+)$/, contract: updateCustomer, run: (id, f) => account.updateCustomer(id, f) },
    { method: 'GET', path: /^\/v1\/customers\/([^/]+)$/, contract: retrieveCustomer, run: read('customer', 'customer') },
    { method: 'POST', path: /^\/v1\/payment_methods\/([^/]+)\/attach$/, contract: attachPaymentMethod, run: (id, f) => account.attach(id, f.customer as string) },
    { method: 'POST', path: /^\/v1\/payment_methods\/([^/]+)\/detach$/, contract: detachPaymentMethod, run: (id) => account.detach(id) },
    { method: 'GET', path: /^\/v1\/payment_methods\/([^/]+)$/, contract: retrievePaymentMethod, run: (id) => account.paymentMethod(id) ?? notFound('PaymentMethod', id) },
    { method: 'POST', path: /^\/v1\/checkout\/sessions$/, contract: createCheckoutSession, run: (_, f) => account.createCheckoutSession(f) },
    { method: 'GET', path: /^\/v1\/checkout\/sessions\/([^/]+)$/, contract: retrieveCheckoutSession, run: read('checkout.session', 'checkout.session') },
    { method: 'GET', path: /^\/v1\/setup_intents\/([^/]+)$/, contract: retrieveSetupIntent, run: read('setup_intent', 'setupintent') },
    { method: 'POST', path: /^\/v1\/payment_intents$/, contract: createPaymentIntent, run: (_, f) => account.createPaymentIntent(f) },
    { method: 'POST', path: /^\/v1\/payment_intents\/([^/]+)\/capture$/, contract: capturePaymentIntent, run: (id, f) => account.capture(id, f) },
    { method: 'POST', path: /^\/v1\/payment_intents\/([^/]+)\/cancel$/, contract: cancelPaymentIntent, run: (id, f) => account.cancel(id, f) },
    { method: 'GET', path: /^\/v1\/payment_intents$/, contract: listPaymentIntents, run: (_, f) => account.listPaymentIntents(f) },
    { method: 'GET', path: /^\/v1\/payment_intents\/([^/]+)$/, contract: retrievePaymentIntent, run: read('payment_intent', 'payment_intent') },
    { method: 'POST', path: /^\/v1\/refunds$/, contract: createRefund, run: (_, f) => account.createRefund(f) },
    { method: 'GET', path: /^\/v1\/refunds$/, contract: listRefunds, run: (_, f) => account.listRefunds(f) },
  ];
  compileContracts(routes.map((r) => r.contract));

  /** A GET of one object by type, refused in the words Stripe uses for that type. */
  function read(type: string, kind: string): Route['run'] {
    return (id) => account.find(type, id) ?? notFound(kind, id);
  }

  function notFound(kind: string, id: string): Answer {
    return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` } } };
  }

  function takeFault(method: string, path: string): Fault | undefined {
    const fault = faults.find((f) => (f.match.method ?? method) === method && (typeof f.match.path === 'string' ? f.match.path === path : f.match.path.test(path)));
    if (fault && --fault.left === 0) faults.splice(faults.indexOf(fault), 1);
    return fault;
  }

  function answer(res: ServerResponse, a: Answer, requestId: string, headers: Record<string, string> = {}): void {
    sendJson(res, a.status, a.body, { 'request-id': requestId, 'stripe-version': createCustomer.properties.headers.properties['stripe-version'].const, ...headers });
  }

  function refuse(res: ServerResponse, status: number, error: StripeError): void {
    answer(res, { status, body: { error } }, `req_${randomBytes(7).toString('hex')}`);
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, form: Form, headers: Record<string, string>): Promise<void> {
    const method = req.method ?? '';
    const key = secretKeyOf(req);
    if (key === undefined || key === '') {
      return refuse(res, 401, {
        type: 'invalid_request_error',
        message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      });
    }
    if (!secretKeys.has(key)) return refuse(res, 401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` });
    const route = routes.find((r) => r.method === method && r.path.test(path));
    if (!route) return refuse(res, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
    const fault = contractError(route.contract, { method, path, headers, form });
    if (fault) return refuse(res, 400, fault);
    const id = decodeURIComponent(route.path.exec(path)![1] ?? '');
    const requestId = `req_${randomBytes(7).toString('hex')}`;
    const idempotencyKey = method === 'POST' ? headers['idempotency-key'] : undefined;
    const slot = idempotencyKey === undefined ? undefined : `${key}\n${idempotencyKey}`;
    const fingerprint = `${method} ${path} ${canonical(form)}`;
    if (slot !== undefined) {
      const earlier = remembered.get(slot);
      if (earlier && now() - earlier.at < keyLifetimeMs) {
        if (earlier.fingerprint !== fingerprint) {
          return refuse(res, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        if (!earlier.answer) {
          return refuse(res, 409, {
            type: 'invalid_request_error',
            code: 'idempotency_key_in_use',
            message: 'There is currently another in-progress request using this Idempotent Key (probably because of a timeout). Please try again later.',
          });
        }
        // A replayed answer can be lost on the way like any other.
        const lost = takeFault(method, path);
        if (lost?.answer === 'cut') return void res.socket?.destroy();
        if (lost?.answer === 'hang') return void hanging.add(res);
        return answer(res, earlier.answer, requestId, { 'idempotent-replayed': 'true', 'original-request': earlier.requestId });
      }
    }
    const injected = takeFault(method, path);
    if (injected?.when === 'before' && injected.answer === 'cut') return void res.socket?.destroy();
    // From here Stripe has begun the work: whatever it answers is kept under the key, a 500 included.
    const record: Remembered = { fingerprint, at: now(), requestId };
    if (slot !== undefined) remembered.set(slot, record);
    if (injected?.when === 'before' && injected.answer === 'hang') return void hanging.add(res);
    const done =
      injected?.when === 'before'
        ? { status: 500, body: { error: apiError } }
        : (() => {
            const result = route.run(id, form);
            return isAnswer(result) ? result : account.render(result, (form.expand as string[] | undefined) ?? []);
          })();
    const kept = injected?.when === 'after' && injected.answer === 'api_error' ? { status: 500, body: { error: apiError } } : done;
    record.answer = kept;
    if (injected?.when === 'after' && injected.answer === 'cut') return void res.socket?.destroy();
    if (injected?.when === 'after' && injected.answer === 'hang') return void hanging.add(res);
    answer(res, kept, requestId, kept.status === 500 ? { 'stripe-should-retry': 'false' } : {});
  }

  function hostedPage(res: ServerResponse, session: StripeObject, message = ''): void {
    const choices = Object.keys(testCards)
      .map((card, i) => `<label><input type="radio" name="card" value="${card}"${i === 0 ? ' checked' : ''}> ${card} (…${testCards[card]!.last4})</label><br>`)
      .join('\n');
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(String(session.cancel_url))}">Cancel</a></p>` : '';
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Save a card (Stripe fake)</title></head><body>
<h1>Save a card for later payments</h1>${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post">${choices}<button type="submit">Save card</button></form>${cancel}</body></html>`;
    res.writeHead(message ? 402 : 200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(html);
  }

  async function send(type: string, object: unknown, previous?: Record<string, unknown>): Promise<Delivery | undefined> {
    if (webhookUrl === undefined) return undefined;
    const delivery = await deliver(webhookUrl, stripeEvent(type, object, Math.floor(now() / 1000), previous), webhookSecret, Math.floor(Date.now() / 1000));
    deliveries.push(delivery);
    return delivery;
  }

  async function completeCheckout(sessionId: string, testCard = 'pm_card_visa'): Promise<string> {
    const outcome = account.completeCheckout(sessionId, testCard);
    if ('declined' in outcome) throw new Error(outcome.declined);
    await send('checkout.session.completed', outcome.session);
    await send('setup_intent.succeeded', outcome.setupIntent);
    return String(outcome.session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', sessionId);
  }

  async function checkoutPage(req: IncomingMessage, res: ServerResponse, sessionId: string, raw: string): Promise<void> {
    const session = account.find('checkout.session', sessionId);
    if (!session) return sendJson(res, 404, { error: { type: 'invalid_request_error', message: `No such checkout.session: '${sessionId}'` } });
    if (session.status !== 'open') {
      res.writeHead(410, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(`<!doctype html><p>This Checkout Session is ${escapeHtml(String(session.status))}.</p>`);
    }
    if (req.method !== 'POST') return hostedPage(res, session);
    try {
      const success = await completeCheckout(sessionId, new URLSearchParams(raw).get('card') ?? 'pm_card_visa');
      if (!success) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end('<!doctype html><p>Your card is saved.</p>');
      }
      res.writeHead(303, { location: success });
      res.end();
    } catch (err) {
      hostedPage(res, session, (err as Error).message);
    }
  }

  const server = await serve(async (req, res) => {
    const raw = await readText(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (page) return void checkoutPage(req, res, decodeURIComponent(page[1]!), raw);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    const form = parseForm(req.method === 'GET' ? url.search.slice(1) : raw);
    calls.push({ method: req.method ?? '', path: url.pathname, headers, form });
    // The contracts name the headers shipd must send; others (the library's telemetry, content-length) pass.
    const named = Object.fromEntries(Object.entries(headers).filter(([k]) => ['authorization', 'stripe-version', 'idempotency-key'].includes(k)));
    api(req, res, url.pathname, form, named).catch((err: unknown) => refuse(res, 500, { ...apiError, message: `The Stripe fake failed: ${String(err)}` }));
  });
  // The routes above reach the account only once a request arrives, after this.
  const account = new StripeAccount(server.url, now);

  return {
    url: server.url,
    secretKey,
    webhookSecret,
    calls,
    deliveries,
    close: async () => {
      for (const res of hanging) res.socket?.destroy();
      await server.close();
    },
    customers: () => account.all('customer'),
    paymentMethods: () => account.all('payment_method'),
    paymentIntents: () => account.all('payment_intent'),
    refunds: () => account.all('refund'),
    checkoutSessions: () => account.all('checkout.session'),
    setupIntents: () => account.all('setup_intent'),
    charges: () =>
      account.all('payment_intent').map((pi) => {
        const charge = pi.latest_charge ? account.get(String(pi.latest_charge)) : undefined;
        return {
          paymentIntent: pi.id,
          status: String(pi.status),
          customer: (pi.customer as string | null) ?? null,
          paymentMethod: (charge?.payment_method as string | undefined) ?? (pi.payment_method as string | null),
          amount: Number(pi.amount),
          captured: Number(charge?.amount_captured ?? 0),
          refunded: account
            .all('refund')
            .filter((r) => r.payment_intent === pi.id)
            .reduce((sum, r) => sum + Number(r.amount), 0),
          metadata: pi.metadata as Record<string, string>,
        };
      }),
    completeCheckout,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    sendEvent: async (type, object, previous) => {
      const delivery = await send(type, object, previous);
      if (!delivery) throw new Error('the Stripe fake has no webhook URL: call setWebhookUrl first');
      return delivery;
    },
    detachPaymentMethod: async (pmId) => {
      const before = account.paymentMethod(pmId)?.customer;
      const result = account.detach(pmId);
      if (isAnswer(result)) throw new Error(`the Stripe fake cannot detach ${pmId}: ${JSON.stringify(result.body)}`);
      return send('payment_method.detached', result, { customer: before });
    },
    updateCardExpiry: async (pmId, expMonth, expYear, type = 'payment_method.automatically_updated') => {
      const { object, previous } = account.setExpiry(pmId, expMonth, expYear);
      return send(type, object, previous);
    },
    setCardBehaviour: (pmId, testCard) => account.setBehaviour(pmId, testCard),
    failNext: ({ when, answer = 'cut', times = 1, ...match }) => void faults.push({ match, left: times, when, answer }),
    hangNext: ({ when = 'before', times = 1, ...match }) => void faults.push({ match, left: times, when, answer: 'hang' }),
  };
}
