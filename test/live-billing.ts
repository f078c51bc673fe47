import { startServer, type TestServer } from './harness.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { startFakeStripe, type FakeStripe } from './fakes/stripe.ts';
import { saveLiveCard, setPaymentMethod } from '../src/domain/billing/payment-methods.ts';

/**
 * Live platform postage is charged through Stripe: live tests that buy with it run a fake Stripe beside the fake
 * carriers. Its clock follows the server's once `follow` is given it, so times Stripe stamps match the server's.
 */
export async function startBilling(): Promise<{ stripe: FakeStripe; env: Record<string, string>; follow(server: TestServer): void }> {
  let clock: (() => number) | undefined;
  const stripe = await startFakeStripe({ now: () => (clock ? clock() : Date.now()) });
  return {
    stripe,
    env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_BASE_URL: stripe.url },
    follow(server) {
      clock = () => server.clock.now().getTime();
    },
  };
}

/** Saves one of Stripe's test cards (pm_card_visa pays) as the account's live card, as `shipd billing set` does. */
export async function saveCard(server: TestServer, account: string, card = 'pm_card_visa'): Promise<string> {
  const saved = await saveLiveCard({ db: server.services.database.db, clock: server.clock, config: server.config }, account, card);
  return saved.paymentMethod;
}

/** A live key of a new account whose card pays: what a live test buys labels with. */
export async function payingLiveKey(server: TestServer): Promise<string> {
  const account = await server.account();
  await saveCard(server, account);
  return (await server.key(account, 'live')).secret;
}

/** A server whose live carriers are the fake UPS, USPS and FedEx, charging through the fake Stripe, and a paying live key. */
export interface LiveShop {
  server: TestServer;
  fakes: CarrierFakes;
  stripe: FakeStripe;
  /** The account the live key is of, with the test card on file. */
  account: string;
  key: string;
  /** The shipment's postage ledger entries, oldest first. */
  ledger(shipmentId: string): Promise<{ kind: string; amount_cents: number }[]>;
  /** The Stripe charges made for the shipment. */
  chargesOf(shipmentId: string): ReturnType<FakeStripe['charges']>;
  close(): Promise<void>;
}

/**
 * What a live purchase test starts from (LiveShop); close() stops the server and every fake. `platform` names the
 * carriers the platform has credentials for, `env` adds settings, and `followClock` has Stripe stamp times by the
 * server's clock, for tests that move it.
 */
export async function startLiveShop(options: { platform?: ('ups' | 'usps' | 'fedex')[]; env?: Record<string, string>; followClock?: boolean } = {}): Promise<LiveShop> {
  const billing = await startBilling();
  const fakes = await startCarrierFakes();
  const server = await startServer({ env: { ...fakes.env(options.platform ?? ['ups', 'usps', 'fedex']), ...billing.env, ...options.env } });
  if (options.followClock) billing.follow(server);
  const account = await server.account();
  await saveCard(server, account);
  const key = (await server.key(account, 'live')).secret;
  return {
    server,
    fakes,
    stripe: billing.stripe,
    account,
    key,
    ledger: (shipmentId) => server.services.database.db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', shipmentId).orderBy('created_at').execute(),
    chargesOf: (shipmentId) => billing.stripe.charges().filter((c) => c.metadata.shipd_shipment === shipmentId),
    async close() {
      await server.close();
      await fakes.close();
      await billing.stripe.close();
    },
  };
}

/** A test key of a new account with the test card on file: what a test-mode test buys labels with. */
export async function payingTestKey(server: TestServer): Promise<string> {
  const account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  return (await server.key(account)).secret;
}
