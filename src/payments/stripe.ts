import type { Stripe } from 'stripe';
import type { StripeSettings } from '../config.ts';

/** What shipd shows of a saved card: never its number, only what Stripe itself reports. */
export interface CardSummary {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** A card Stripe holds for a customer. */
export interface SavedCard {
  paymentMethod: string;
  customer: string | null;
  card: CardSummary | null;
}

/** The outcome of asking Stripe to hold a label's postage on a card. */
export type Authorization =
  | { ok: true; paymentIntent: string }
  | { ok: false; refusal: 'declined'; code: string; declineCode: string | null; message: string }
  | { ok: false; refusal: 'authentication_required'; message: string };

/** Stripe could not be reached, or answered with its own fault: what was asked may or may not have happened. */
export class PaymentsUnavailable extends Error {}

/** Stripe refused a request as malformed or about something that does not exist: shipd's fault or stale data. */
export class PaymentsRefused extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * A hold is asked for within a purchase, which the reconcile job takes for a crash's once it is older than its
 * time: the hold's tries are bounded so that its answer can never come after that.
 */
const holdTryMs = 3_000;
export const holdBudgetMs = 2 * holdTryMs;

// Every write names its purpose and its subject, so a retry after a lost answer (the library's own, or the settle
// job's after a crash) is the same request to Stripe, which answers it without doing it twice.
const key = (purpose: string, subject: string) => `shipd-${purpose}-${subject}`;

/** A 409: the first request under this key is still being worked on by Stripe, and may yet succeed. */
const stillRunning = (e: { statusCode?: number; code?: string }): boolean => e.statusCode === 409 || e.code === 'idempotency_key_in_use';

const cardOf = (pm: Stripe.PaymentMethod): CardSummary | null =>
  pm.card ? { brand: pm.card.brand, last4: pm.card.last4, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year } : null;

const savedCard = (pm: Stripe.PaymentMethod): SavedCard => ({
  paymentMethod: pm.id,
  customer: typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null),
  card: cardOf(pm),
});

/** Stripe, as shipd's billing uses it: customers, cards saved through Stripe's hosted page, and postage charges. */
export class StripeGateway {
  private constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string | undefined,
  ) {}

  static async open(settings: StripeSettings): Promise<StripeGateway> {
    // Loaded on first use: a server that never charges a card never pays for the library's start-up.
    const { default: StripeClient } = await import('stripe');
    const base = new URL(settings.baseUrl);
    const client = new StripeClient(settings.secretKey, {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol.replace(':', '') as 'http' | 'https',
      // The library retries lost answers and Stripe's own faults with the request's Idempotency-Key unchanged.
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'shipd' },
    });
    return new StripeGateway(client, settings.webhookSecret);
  }

  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      const e = err as { type?: string; message?: string; code?: string; statusCode?: number };
      if (!stillRunning(e) && (e.type === 'StripeInvalidRequestError' || e.type === 'StripeCardError' || e.type === 'StripeIdempotencyError')) {
        throw new PaymentsRefused(`Stripe refused to ${what}: ${e.message ?? 'no reason given'}`, e.code);
      }
      throw new PaymentsUnavailable(`Stripe did not ${what}: ${e.message ?? String(err)}`);
    }
  }

  async createCustomer(accountId: string, name: string): Promise<string> {
    const customer = await this.call('create a customer', () =>
      this.stripe.customers.create({ name, metadata: { shipd_account: accountId } }, { idempotencyKey: key('customer', accountId) }),
    );
    return customer.id;
  }

  /** Attaches a card to the customer (a card already theirs is simply read) and makes it the one they are charged to. */
  async attachCard(customer: string, paymentMethod: string): Promise<SavedCard> {
    const found = await this.call('read the payment method', () => this.stripe.paymentMethods.retrieve(paymentMethod));
    const owner = savedCard(found).customer;
    if (owner !== null && owner !== customer) throw new PaymentsRefused(`the payment method ${paymentMethod} belongs to another Stripe customer`, 'payment_method_not_available');
    const attached =
      owner === customer
        ? found
        : await this.call('attach the card', () => this.stripe.paymentMethods.attach(paymentMethod, { customer }, { idempotencyKey: key('attach', `${customer}-${paymentMethod}`) }));
    await this.call('make the card the default', () =>
      this.stripe.customers.update(customer, { invoice_settings: { default_payment_method: attached.id } }, { idempotencyKey: key('default', `${customer}-${attached.id}`) }),
    );
    return savedCard(attached);
  }

  async detachCard(paymentMethod: string): Promise<void> {
    await this.call('detach the card', () => this.stripe.paymentMethods.detach(paymentMethod, {}, { idempotencyKey: key('detach', paymentMethod) }));
  }

  /** A Stripe-hosted page where the card holder saves a card for later off-session charges; no card number reaches shipd. */
  async startCardSetup(customer: string, accountId: string, successUrl: string, cancelUrl: string, nonce: string): Promise<string> {
    const session = await this.call('start the card set-up', () =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer,
          currency: 'usd',
          allowed_payment_method_types: ['card'],
          success_url: successUrl,
          cancel_url: cancelUrl,
          client_reference_id: accountId,
          metadata: { shipd_account: accountId },
        },
        { idempotencyKey: key('setup', nonce) },
      ),
    );
    if (!session.url) throw new PaymentsUnavailable('Stripe did not give a page for the card set-up');
    return session.url;
  }

  /** The card a finished set-up saved, with the customer it was saved for; null while the holder has not finished. */
  async finishedCardSetup(sessionId: string): Promise<{ customer: string | null; accountId: string | null; card: SavedCard } | null> {
    const session = await this.call('read the card set-up', () => this.stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent.payment_method'] }));
    return this.setupOutcome(session);
  }

  private setupOutcome(session: Stripe.Checkout.Session): { customer: string | null; accountId: string | null; card: SavedCard } | null {
    if (session.mode !== 'setup' || session.status !== 'complete') return null;
    const intent = session.setup_intent;
    if (!intent || typeof intent === 'string' || intent.status !== 'succeeded' || !intent.payment_method || typeof intent.payment_method === 'string') return null;
    const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
    return { customer, accountId: session.client_reference_id, card: savedCard(intent.payment_method) };
  }

  /**
   * Holds the postage on the card, off-session (the merchant is not there to authenticate), to be captured once the
   * label is bought or released if it is not. Asking again for the same shipment and attempt gets the same hold; a
   * later attempt (a return paid on use whose card declined, asked again) is a new request, as Stripe keeps a
   * decline under its key and would answer it again.
   */
  async authorize(charge: {
    shipmentId: string;
    accountId: string;
    customer: string;
    paymentMethod: string;
    amountCents: number;
    description: string;
    attempt: number;
  }): Promise<Authorization> {
    // The first attempt's request is the one shipd always sent, so that one already under way is still the same request.
    const later = charge.attempt > 1;
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: charge.amountCents,
          currency: 'usd',
          customer: charge.customer,
          payment_method: charge.paymentMethod,
          off_session: true,
          confirm: true,
          capture_method: 'manual',
          description: charge.description,
          metadata: { shipd_shipment: charge.shipmentId, shipd_account: charge.accountId, ...(later && { shipd_attempt: String(charge.attempt) }) },
        },
        { idempotencyKey: key('postage', later ? `${charge.shipmentId}-${charge.attempt}` : charge.shipmentId), timeout: holdTryMs, maxNetworkRetries: 1 },
      );
      if (intent.status === 'requires_capture') return { ok: true, paymentIntent: intent.id };
      if (intent.status === 'requires_action') return { ok: false, refusal: 'authentication_required', message: 'the card asks its holder to authenticate the charge' };
      return { ok: false, refusal: 'declined', code: 'card_declined', declineCode: null, message: `the charge is ${intent.status}` };
    } catch (err) {
      const e = err as { type?: string; code?: string; decline_code?: string; message?: string };
      if (e.type === 'StripeCardError') {
        if (e.code === 'authentication_required') return { ok: false, refusal: 'authentication_required', message: e.message ?? 'the card asks its holder to authenticate the charge' };
        return { ok: false, refusal: 'declined', code: e.code ?? 'card_declined', declineCode: e.decline_code ?? null, message: e.message ?? 'the card was declined' };
      }
      if (e.type === 'StripeInvalidRequestError' && !stillRunning(e)) throw new PaymentsRefused(`Stripe refused the charge: ${e.message ?? 'no reason given'}`, e.code);
      throw new PaymentsUnavailable(`Stripe did not answer the charge: ${e.message ?? String(err)}`);
    }
  }

  /**
   * What Stripe did with a hold request whose answer was lost: the shipment's PaymentIntent, found by the customer's
   * PaymentIntents since the request was made. Asking again under the same key would not tell, as Stripe replays a
   * fault of its own under a key for a day.
   */
  async findHold(customer: string, shipmentId: string, since: Date, attempt = 1): Promise<{ paymentIntent: string; held: boolean } | null> {
    return this.call('list the charges', async () => {
      const created = { gte: Math.floor(since.getTime() / 1000) - 60 };
      for await (const intent of this.stripe.paymentIntents.list({ customer, created, limit: 100 })) {
        // An earlier attempt's declined PaymentIntent is not this attempt's answer.
        if (intent.metadata?.shipd_shipment === shipmentId && (intent.metadata.shipd_attempt ?? '1') === String(attempt)) return { paymentIntent: intent.id, held: intent.status === 'requires_capture' };
      }
      return null;
    });
  }

  /** Where a hold stands at Stripe now, for when shipd's record and Stripe's disagree. */
  async holdState(paymentIntent: string): Promise<{ state: 'held' | 'captured' | 'refunded' | 'released' | 'failed'; capturedCents: number }> {
    const intent = await this.call('read the charge', () => this.stripe.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge'] }));
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const refunded = charge !== null && charge.amount_refunded > 0 && charge.amount_refunded >= intent.amount_received;
    const state =
      intent.status === 'requires_capture' ? 'held' : intent.status === 'canceled' ? 'released' : intent.status !== 'succeeded' ? 'failed' : refunded ? 'refunded' : 'captured';
    return { state, capturedCents: intent.amount_received };
  }

  /** Charges what the hold allows of the postage; capturing a captured hold again is answered, not charged twice. */
  async capture(paymentIntent: string, shipmentId: string, amountCents: number): Promise<number> {
    const intent = await this.call('capture the charge', () =>
      this.stripe.paymentIntents.capture(paymentIntent, { amount_to_capture: amountCents }, { idempotencyKey: key('capture', shipmentId) }),
    );
    return intent.amount_received;
  }

  /** Lets go of a hold whose label was never bought. */
  async release(paymentIntent: string, shipmentId: string): Promise<void> {
    await this.call('release the hold', () =>
      this.stripe.paymentIntents.cancel(paymentIntent, { cancellation_reason: 'abandoned' }, { idempotencyKey: key('release', shipmentId) }),
    );
  }

  /** Gives a voided label's postage back to the card: without an amount, all Stripe has not refunded yet (boxes voided alone were). */
  async refund(paymentIntent: string, shipmentId: string): Promise<string> {
    const refund = await this.call('refund the charge', () =>
      this.stripe.refunds.create(
        { payment_intent: paymentIntent, reason: 'requested_by_customer', metadata: { shipd_shipment: shipmentId } },
        { idempotencyKey: key('refund', shipmentId) },
      ),
    );
    return refund.id;
  }

  /**
   * Gives one box's share of a captured charge back to the card (`box` counted from 1), at most once: the refund
   * Stripe already made for that box, found by its metadata, is answered instead of a second. The Idempotency-Key
   * alone would not do, as Stripe keeps it a day and a partial refund asked again after that is made again.
   */
  async refundBox(paymentIntent: string, shipmentId: string, box: number, amountCents: number): Promise<string> {
    const made = await this.call('list the refunds', async () => {
      for await (const refund of this.stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })) {
        if (refund.metadata?.shipd_shipment === shipmentId && refund.metadata.shipd_box === String(box)) return refund.id;
      }
      return null;
    });
    if (made) return made;
    const refund = await this.call('refund the box', () =>
      this.stripe.refunds.create(
        { payment_intent: paymentIntent, amount: amountCents, reason: 'requested_by_customer', metadata: { shipd_shipment: shipmentId, shipd_box: String(box) } },
        { idempotencyKey: key('refund', `${shipmentId}-box${box}`) },
      ),
    );
    return refund.id;
  }

  /** The event Stripe signed, or an error saying why it is not one. */
  verifyEvent(payload: Buffer, signature: string): Stripe.Event {
    if (!this.webhookSecret) throw new PaymentsRefused('STRIPE_WEBHOOK_SECRET is not set, so no event can be verified', 'webhook_secret_missing');
    return this.stripe.webhooks.constructEvent(payload, signature, this.webhookSecret);
  }

  static cardFrom(pm: Stripe.PaymentMethod): SavedCard {
    return savedCard(pm);
  }
}

const gateways = new WeakMap<StripeSettings, Promise<StripeGateway>>();

/** One client per process and settings: it keeps its connections to Stripe open between charges. */
export function stripeGateway(settings: StripeSettings): Promise<StripeGateway> {
  let gateway = gateways.get(settings);
  if (!gateway) {
    gateway = StripeGateway.open(settings);
    gateways.set(settings, gateway);
  }
  return gateway;
}
