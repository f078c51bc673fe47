// The baseline of bench:webhooks' drain mode: shipd's own attempt code (sendAttempt: the Standard Webhooks body,
// its signature, undici through the webhook dispatcher) in a loop, with as many attempts in flight as the delivery
// worker gives one endpoint, and no database. What the worker delivers beside this is what the outbox costs: the
// fan-out, the leases and the recorded outcomes. Sends for a warm-up second, then BARE_SECONDS measured, and prints
// one line: `delivered <2xx answers in the measured time> failed <others> in <ms>`.
import { randomBytes } from 'node:crypto';
import { createWebhookDispatcher } from '../src/events/address-guard.ts';
import { sendAttempt } from '../src/events/delivery-attempt.ts';
import { systemClock } from '../src/kernel/clock.ts';
import { newId } from '../src/kernel/ids.ts';
import { sealWebhookSecret } from '../src/events/webhook-secrets.ts';

const url = process.env.BARE_URL!;
// Stored sealed, as the worker finds it, so each attempt opens it as the worker's do.
const shipdSecret = randomBytes(32).toString('base64url');
const secret = sealWebhookSecret(shipdSecret, process.env.BARE_SECRET!);
const data = process.env.BARE_DATA!;
const seconds = Number(process.env.BARE_SECONDS);
// DeliveryWorker's perEndpoint: the bench's one endpoint never has more attempts in flight than this.
const inFlight = 10;
const timeoutMs = 10_000;

// The bench's receiver is a local http one, as the worker's is when insecure URLs are allowed.
const guard = { allowInsecure: true };
const dispatcher = await createWebhookDispatcher({ ...guard, connectTimeoutMs: timeoutMs });
let delivered = 0;
let failed = 0;
let counting = false;

async function attempt(): Promise<void> {
  const outcome = await sendAttempt(
    {
      id: '',
      webhookId: '',
      attempts: 0,
      lease: '',
      leaseEnds: 0,
      eventId: newId('evt'),
      type: 'order.created',
      createdAt: new Date().toISOString(),
      data,
      url,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    },
    systemClock,
    dispatcher,
    timeoutMs,
    shipdSecret,
    guard,
  );
  if (!counting) return;
  if (outcome.error === null) delivered++;
  else failed++;
}

const warmEnd = performance.now() + 1000;
let begin = 0;
let end = Infinity;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    for (;;) {
      const now = performance.now();
      if (now >= end) return;
      if (!counting && now >= warmEnd) {
        counting = true;
        begin = now;
        end = begin + seconds * 1000;
      }
      await attempt();
    }
  }),
);
const ms = performance.now() - begin;
await dispatcher.close();
process.stdout.write(`delivered ${delivered} failed ${failed} in ${ms.toFixed(0)}\n`);
