import { randomBytes } from 'node:crypto';
import type { Form, StripeError } from './stripe-form.ts';
import { isTestCard, testCards, type CardBehaviour } from './stripe-cards.ts';

// One Stripe account's objects and what each operation does to them, answering as Stripe does
// (docs.stripe.com/api: the objects; docs.stripe.com/error-codes: the refusals). Objects are kept in their wire
// shape, so an answer is a copy of what is stored, with the fields a request expands put in place.

export type StripeObject = Record<string, unknown> & { id: string; object: string };
export interface Answer {
  status: number;
  body: unknown;
}

type Metadata = Record<string, string>;

const refusal = (status: number, error: StripeError): Answer => ({ status, body: { error } });
const invalid = (message: string, more: Omit<StripeError, 'type' | 'message'> = {}): Answer => refusal(400, { type: 'invalid_request_error', message, ...more });
const noSuch = (kind: string, id: string, param?: string): Answer =>
  refusal(param ? 400 : 404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, ...(param ? { param } : { param: 'id' }) });

/** The fields each object lets a request expand, by object type. */
const expandable: Record<string, string[]> = {
  customer: ['invoice_settings.default_payment_method'],
  payment_method: ['customer'],
  'checkout.session': ['customer', 'setup_intent'],
  setup_intent: ['customer', 'payment_method'],
  payment_intent: ['customer', 'payment_method', 'latest_charge'],
  charge: ['customer', 'payment_intent', 'payment_method'],
  refund: ['charge', 'payment_intent'],
};

const cancelable = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];
const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

export class StripeAccount {
  private readonly objects = new Map<string, StripeObject>();
  private readonly behaviour = new Map<string, CardBehaviour>();
  /** PaymentMethods detached from a customer: Stripe refuses to use them again. */
  private readonly spent = new Set<string>();

  constructor(
    private readonly hostedPageBase: string,
    private readonly now: () => number,
  ) {}

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private store<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  private newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
  }

  /** Every stored object of one type, as copies. */
  all(type: string): StripeObject[] {
    return [...this.objects.values()].filter((o) => o.object === type).map((o) => structuredClone(o));
  }

  get(id: string): StripeObject | undefined {
    return this.objects.get(id);
  }

  /** A stored object of one type. */
  find(type: string, id: string): StripeObject | undefined {
    const found = this.objects.get(id);
    return found?.object === type ? found : undefined;
  }

  /** A stored object as an answer, with the paths in `expand` (`a.b` expands b inside a) replaced by their objects. */
  render(object: StripeObject, expand: string[] = []): Answer {
    const copy = structuredClone(object);
    for (const path of expand) {
      const fault = this.expandInto(copy, path.split('.'));
      if (fault) return invalid(`This property cannot be expanded (${fault}).`, { param: 'expand' });
    }
    return { status: 200, body: copy };
  }

  private expandInto(object: Record<string, unknown>, path: string[]): string | undefined {
    const fields = expandable[String(object.object)] ?? [];
    // A nested field such as invoice_settings.default_payment_method is expandable as one path.
    const nested = fields.find((f) => f.includes('.') && path.join('.').startsWith(f));
    const [head, ...rest] = nested ? [nested, ...path.slice(nested.split('.').length)] : path;
    if (!head || !fields.includes(head)) return head ?? '';
    const keys = head.split('.');
    const holder = keys.slice(0, -1).reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, object);
    const last = keys.at(-1)!;
    const value = holder[last];
    if (typeof value === 'string') holder[last] = structuredClone(this.objects.get(value) ?? value);
    const child = holder[last];
    if (rest.length === 0 || child === null || typeof child !== 'object') return rest.length === 0 ? undefined : rest[0];
    return this.expandInto(child as Record<string, unknown>, rest);
  }

  private setMetadata(object: StripeObject, metadata: Form[string] | undefined): void {
    if (metadata === undefined) return;
    if (metadata === '') {
      object.metadata = {};
      return;
    }
    const current = object.metadata as Metadata;
    for (const [k, v] of Object.entries(metadata as Metadata)) {
      if (v === '') delete current[k];
      else current[k] = v;
    }
  }

  // Customers

  createCustomer(form: Form): StripeObject {
    const customer = this.store({
      id: this.newId('cus'),
      object: 'customer',
      created: this.seconds(),
      name: (form.name as string | undefined) ?? null,
      email: (form.email as string | undefined) ?? null,
      description: (form.description as string | undefined) ?? null,
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: {},
    });
    this.setMetadata(customer, form.metadata);
    return customer;
  }

  updateCustomer(id: string, form: Form): Answer | StripeObject {
    const customer = this.find('customer', id);
    if (!customer) return noSuch('customer', id);
    const settings = form.invoice_settings as Record<string, string> | undefined;
    const wanted = settings?.default_payment_method;
    if (wanted !== undefined) {
      const param = 'invoice_settings[default_payment_method]';
      const pm = this.paymentMethod(wanted);
      if (!pm) return noSuch('PaymentMethod', wanted, param);
      if (pm.customer !== id) {
        return invalid(`The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`, { param });
      }
      (customer.invoice_settings as Record<string, unknown>).default_payment_method = pm.id;
    }
    for (const field of ['name', 'email', 'description'] as const) if (typeof form[field] === 'string') customer[field] = form[field];
    this.setMetadata(customer, form.metadata);
    return customer;
  }

  // PaymentMethods

  /** A stored PaymentMethod, or a new one when `id` is one of Stripe's test PaymentMethods. */
  paymentMethod(id: string): StripeObject | undefined {
    return isTestCard(id) ? this.cardFor(id) : this.find('payment_method', id);
  }

  /** Makes a saved card behave from now on as another test card does (a card that starts to decline, say). */
  setBehaviour(pmId: string, testCard: string): void {
    const card = testCards[testCard];
    if (!card || !this.behaviour.has(pmId)) throw new Error(`the Stripe fake has no PaymentMethod ${pmId} or no test card ${testCard}`);
    this.behaviour.set(pmId, card.behaviour);
  }

  private cardFor(testCard: string): StripeObject {
    const card = testCards[testCard]!;
    const year = new Date(this.now()).getUTCFullYear();
    const pm = this.store({
      id: this.newId('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.seconds(),
      customer: null,
      livemode: false,
      metadata: {},
      allow_redisplay: 'unspecified',
      billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: null, name: null, phone: null, tax_id: null },
      card: {
        brand: card.brand,
        display_brand: card.brand,
        last4: card.last4,
        exp_month: 12,
        exp_year: year + 3,
        funding: card.funding,
        country: 'US',
        fingerprint: `fp${card.last4}${card.brand}`,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        networks: { available: [card.brand], preferred: null },
        three_d_secure_usage: { supported: true },
        generated_from: null,
        wallet: null,
      },
    });
    this.behaviour.set(pm.id, card.behaviour);
    return pm;
  }

  /** The card_error Stripe answers when the issuer declines, with the objects Stripe puts in it. */
  private declined(behaviour: Exclude<CardBehaviour, { kind: 'succeeds' }>, pm: StripeObject, extra: Record<string, unknown> = {}): StripeError {
    const [code, declineCode, message] =
      behaviour.kind === 'authentication_required'
        ? ['authentication_required', 'authentication_required', 'Your card was declined. This transaction requires authentication.']
        : [behaviour.code, behaviour.declineCode, behaviour.message];
    return { type: 'card_error', code, decline_code: declineCode, message, doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`, payment_method: structuredClone(pm), ...extra };
  }

  attach(pmId: string, customerId: string): Answer | StripeObject {
    const pm = this.paymentMethod(pmId);
    if (!pm) return noSuch('PaymentMethod', pmId);
    const customer = this.find('customer', customerId);
    if (!customer) return noSuch('customer', customerId, 'customer');
    if (this.spent.has(pm.id)) {
      return invalid('This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.');
    }
    if (pm.customer === customerId) return pm;
    if (pm.customer !== null) return invalid('The payment method you provided has already been attached to a customer.');
    const behaviour = this.behaviour.get(pm.id)!;
    if (behaviour.kind === 'declines') return refusal(402, this.declined(behaviour, pm));
    pm.customer = customerId;
    return pm;
  }

  detach(pmId: string): Answer | StripeObject {
    const pm = this.paymentMethod(pmId);
    if (!pm) return noSuch('PaymentMethod', pmId);
    if (pm.customer === null) return invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
    const customer = this.find('customer', String(pm.customer));
    const settings = customer?.invoice_settings as Record<string, unknown> | undefined;
    if (settings?.default_payment_method === pm.id) settings.default_payment_method = null;
    pm.customer = null;
    this.spent.add(pm.id);
    return pm;
  }

  /** A card's new expiry date, as the card network's account updater reports it. */
  setExpiry(pmId: string, expMonth: number, expYear: number): { object: StripeObject; previous: Record<string, unknown> } {
    const pm = this.paymentMethod(pmId);
    if (!pm) throw new Error(`the Stripe fake has no PaymentMethod ${pmId}`);
    const card = pm.card as Record<string, unknown>;
    const previous = { card: { exp_month: card.exp_month, exp_year: card.exp_year } };
    card.exp_month = expMonth;
    card.exp_year = expYear;
    return { object: pm, previous };
  }

  // Checkout Sessions and SetupIntents

  createCheckoutSession(form: Form): Answer | StripeObject {
    if (form.mode !== 'setup') return invalid('The Stripe fake models Checkout in setup mode alone.', { param: 'mode' });
    const customer = form.customer as string | undefined;
    if (customer !== undefined && !this.find('customer', customer)) return noSuch('customer', customer, 'customer');
    if (form.currency === undefined && form.allowed_payment_method_types === undefined) {
      // Endive's rule: setup mode needs a currency unless the payment method types are named.
      return invalid('Missing required param: currency.', { code: 'parameter_missing', param: 'currency' });
    }
    const id = this.newId('cs_test');
    const session = this.store({
      id,
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      payment_status: 'no_payment_required',
      created: this.seconds(),
      expires_at: this.seconds() + 24 * 3600,
      customer: customer ?? null,
      currency: (form.currency as string | undefined) ?? null,
      allowed_payment_method_types: (form.allowed_payment_method_types as string[] | undefined) ?? null,
      payment_method_types: ['card'],
      client_reference_id: (form.client_reference_id as string | undefined) ?? null,
      success_url: (form.success_url as string | undefined) ?? null,
      cancel_url: (form.cancel_url as string | undefined) ?? null,
      setup_intent: null,
      payment_intent: null,
      subscription: null,
      livemode: false,
      metadata: {},
      url: `${this.hostedPageBase}/c/pay/${id}`,
    });
    this.setMetadata(session, form.metadata);
    return session;
  }

  /**
   * The card holder finishing the hosted page with a test card: the card is checked with its issuer (a declining
   * card is refused and the session stays open), saved to the session's customer through a succeeded SetupIntent.
   */
  completeCheckout(sessionId: string, testCard: string): { session: StripeObject; setupIntent: StripeObject } | { declined: string } {
    const session = this.find('checkout.session', sessionId);
    if (!session) throw new Error(`the Stripe fake has no Checkout Session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`the Checkout Session ${sessionId} is ${String(session.status)}, not open`);
    if (!isTestCard(testCard)) throw new Error(`${testCard} is not one of Stripe's test PaymentMethods`);
    const pm = this.cardFor(testCard);
    const behaviour = this.behaviour.get(pm.id)!;
    if (behaviour.kind === 'declines') return { declined: behaviour.message };
    pm.customer = session.customer;
    const setupIntent = this.store({
      id: this.newId('seti'),
      object: 'setup_intent',
      status: 'succeeded',
      usage: 'off_session',
      created: this.seconds(),
      customer: session.customer,
      payment_method: pm.id,
      payment_method_types: ['card'],
      client_secret: `${this.newId('seti')}_secret_${randomBytes(8).toString('hex')}`,
      cancellation_reason: null,
      description: null,
      last_setup_error: null,
      next_action: null,
      livemode: false,
      metadata: {},
    });
    Object.assign(session, { status: 'complete', setup_intent: setupIntent.id, url: null });
    return { session, setupIntent };
  }

  // PaymentIntents and their charges

  createPaymentIntent(form: Form): Answer | StripeObject {
    const amount = Number(form.amount);
    if (amount < 50) return invalid('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    if (amount > 99_999_999) return invalid('Amount must be no more than $999,999.99', { code: 'amount_too_large', param: 'amount' });
    const confirm = form.confirm === 'true';
    const offSession = form.off_session !== undefined && form.off_session !== 'false';
    if (offSession && !confirm) return invalid('You can only set `off_session` when `confirm` is true.', { param: 'off_session' });
    const customerId = form.customer as string | undefined;
    if (customerId !== undefined && !this.find('customer', customerId)) return noSuch('customer', customerId, 'customer');
    const pmId = form.payment_method as string | undefined;
    const pm = pmId === undefined ? undefined : this.paymentMethod(pmId);
    if (pmId !== undefined && !pm) return noSuch('PaymentMethod', pmId, 'payment_method');
    if (pm && this.spent.has(pm.id)) {
      return invalid(
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
        { param: 'payment_method' },
      );
    }
    if (pm && pm.customer !== null && pm.customer !== customerId) {
      return invalid(`The provided PaymentMethod ${pm.id} belongs to a different Customer than ${customerId ?? 'none'}.`, { param: 'payment_method' });
    }
    if (confirm && !pm) {
      return invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method or ConfirmationToken.",
        { code: 'payment_intent_unexpected_state' },
      );
    }
    const id = this.newId('pi');
    const intent = this.store({
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: form.currency as string,
      capture_method: (form.capture_method as string | undefined) ?? 'automatic_async',
      confirmation_method: 'automatic',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      created: this.seconds(),
      customer: customerId ?? null,
      description: (form.description as string | undefined) ?? null,
      payment_method: pm?.id ?? null,
      payment_method_types: ['card'],
      allowed_payment_method_types: null,
      status: pm ? 'requires_confirmation' : 'requires_payment_method',
      last_payment_error: null,
      latest_charge: null,
      next_action: null,
      canceled_at: null,
      cancellation_reason: null,
      setup_future_usage: null,
      livemode: false,
      metadata: {},
    });
    this.setMetadata(intent, form.metadata);
    return confirm && pm ? this.confirm(intent, pm, offSession) : intent;
  }

  /** A page of PaymentIntents, newest first, as Stripe's list endpoints answer (`limit` 1 to 100, default 10). */
  listPaymentIntents(form: Form): Answer {
    const limit = form.limit === undefined ? 10 : Number(form.limit);
    if (limit < 1 || limit > 100) return invalid('This value must be less than or equal to 100.', { param: 'limit' });
    const created = form.created;
    const bounds = typeof created === 'string' ? { gte: created, lte: created } : ((created ?? {}) as Record<string, string>);
    const within = (t: number) =>
      (bounds.gt === undefined || t > Number(bounds.gt)) &&
      (bounds.gte === undefined || t >= Number(bounds.gte)) &&
      (bounds.lt === undefined || t < Number(bounds.lt)) &&
      (bounds.lte === undefined || t <= Number(bounds.lte));
    let all = this.all('payment_intent')
      .filter((pi) => (form.customer === undefined || pi.customer === form.customer) && within(Number(pi.created)))
      .reverse();
    if (form.starting_after !== undefined) all = all.slice(all.findIndex((pi) => pi.id === form.starting_after) + 1);
    return { status: 200, body: { object: 'list', url: '/v1/payment_intents', has_more: all.length > limit, data: all.slice(0, limit) } };
  }

  private confirm(intent: StripeObject, pm: StripeObject, offSession: boolean): Answer | StripeObject {
    const behaviour = this.behaviour.get(pm.id)!;
    const charge = this.store({
      id: this.newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      refunded: false,
      paid: false,
      status: 'failed',
      currency: intent.currency,
      created: this.seconds(),
      customer: intent.customer,
      payment_intent: intent.id,
      payment_method: pm.id,
      description: intent.description,
      failure_code: null as string | null,
      failure_message: null as string | null,
      livemode: false,
      metadata: structuredClone(intent.metadata),
    });
    intent.latest_charge = charge.id;
    if (behaviour.kind === 'authentication_required' && !offSession) {
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
      return intent;
    }
    if (behaviour.kind !== 'succeeds') {
      const error = this.declined(behaviour, pm, { charge: charge.id });
      Object.assign(charge, { failure_code: error.code, failure_message: error.message });
      Object.assign(intent, { status: 'requires_payment_method', payment_method: null, last_payment_error: error });
      return refusal(402, { ...error, payment_intent: structuredClone(intent) });
    }
    Object.assign(charge, { status: 'succeeded', paid: true });
    if (intent.capture_method === 'manual') {
      Object.assign(intent, { status: 'requires_capture', amount_capturable: intent.amount });
    } else {
      Object.assign(charge, { captured: true, amount_captured: intent.amount });
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
    }
    return intent;
  }

  private chargeOf(intent: StripeObject): StripeObject | undefined {
    return intent.latest_charge ? this.objects.get(String(intent.latest_charge)) : undefined;
  }

  capture(id: string, form: Form): Answer | StripeObject {
    const intent = this.find('payment_intent', id);
    if (!intent) return noSuch('payment_intent', id);
    if (intent.status !== 'requires_capture') {
      return invalid(
        `This PaymentIntent could not be captured because it has a status of ${String(intent.status)}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        { code: 'payment_intent_unexpected_state', payment_intent: structuredClone(intent) },
      );
    }
    const capturable = Number(intent.amount_capturable);
    const amount = form.amount_to_capture === undefined ? capturable : Number(form.amount_to_capture);
    if (amount > capturable) {
      return invalid(`The amount to capture (${dollars(amount)}) is greater than the amount capturable (${dollars(capturable)}).`, { code: 'amount_too_large', param: 'amount_to_capture' });
    }
    if (amount < 1) return invalid('Invalid positive integer', { param: 'amount_to_capture' });
    const charge = this.chargeOf(intent)!;
    // What is not captured is released, and Stripe shows it as refunded on the charge.
    Object.assign(charge, { captured: true, amount_captured: amount, amount_refunded: capturable - amount });
    Object.assign(intent, { status: 'succeeded', amount_received: amount, amount_capturable: 0 });
    this.setMetadata(intent, form.metadata);
    return intent;
  }

  cancel(id: string, form: Form): Answer | StripeObject {
    const intent = this.find('payment_intent', id);
    if (!intent) return noSuch('payment_intent', id);
    if (!cancelable.includes(String(intent.status))) {
      return invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}. Only a PaymentIntent with one of the following statuses may be canceled: ${cancelable.join(', ')}.`,
        { code: 'payment_intent_unexpected_state', payment_intent: structuredClone(intent) },
      );
    }
    const charge = this.chargeOf(intent);
    if (charge && intent.status === 'requires_capture') Object.assign(charge, { amount_refunded: charge.amount, refunded: true });
    Object.assign(intent, { status: 'canceled', canceled_at: this.seconds(), cancellation_reason: (form.cancellation_reason as string | undefined) ?? null, amount_capturable: 0 });
    return intent;
  }

  // Refunds

  /** A PaymentIntent's refunds (or a charge's), newest first, as Stripe lists them. */
  listRefunds(form: Form): Answer {
    const limit = form.limit === undefined ? 10 : Number(form.limit);
    if (limit < 1 || limit > 100) return invalid('This value must be less than or equal to 100.', { param: 'limit' });
    let all = this.all('refund')
      .filter((r) => (form.payment_intent === undefined || r.payment_intent === form.payment_intent) && (form.charge === undefined || r.charge === form.charge))
      .reverse();
    if (form.starting_after !== undefined) all = all.slice(all.findIndex((r) => r.id === form.starting_after) + 1);
    return { status: 200, body: { object: 'list', url: '/v1/refunds', has_more: all.length > limit, data: all.slice(0, limit) } };
  }

  createRefund(form: Form): Answer | StripeObject {
    const piId = form.payment_intent as string;
    const intent = this.find('payment_intent', piId);
    if (!intent) return noSuch('payment_intent', piId, 'payment_intent');
    const charge = this.chargeOf(intent);
    if (intent.status !== 'succeeded' || !charge) {
      return invalid(`This PaymentIntent (${piId}) does not have a successful charge to refund.`, { code: 'payment_intent_unexpected_state', param: 'payment_intent' });
    }
    const refunded = this.all('refund').filter((r) => r.charge === charge.id).reduce((sum, r) => sum + Number(r.amount), 0);
    const left = Number(charge.amount_captured) - refunded;
    if (left <= 0) return invalid(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (amount < 1) return invalid('Invalid positive integer', { param: 'amount' });
    if (amount > left) {
      return invalid(`Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`, { code: 'amount_too_large', param: 'amount' });
    }
    const refund = this.store({
      id: this.newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: intent.id,
      currency: intent.currency,
      created: this.seconds(),
      reason: (form.reason as string | undefined) ?? null,
      status: 'succeeded',
      balance_transaction: null,
      metadata: {},
    });
    this.setMetadata(refund, form.metadata);
    const released = Number(charge.amount) - Number(charge.amount_captured);
    const total = released + refunded + amount;
    Object.assign(charge, { amount_refunded: total, refunded: total === Number(charge.amount) });
    return refund;
  }
}
