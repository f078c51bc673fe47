import { createHmac, randomBytes } from 'node:crypto';
import { apiVersion } from '../contracts/stripe/common.ts';

// Stripe's events as its webhook endpoints receive them (docs.stripe.com/webhooks#verify-manually): a JSON event
// posted with `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's
// secret>`.

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** One event posted to the webhook URL: what the endpoint answered, or why nothing was answered. */
export interface Delivery {
  event: StripeEvent;
  status: number | undefined;
  error?: string;
}

export function stripeEvent(type: string, object: unknown, created: number, previous?: Record<string, unknown>): StripeEvent {
  return {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: apiVersion,
    created,
    data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export function signature(payload: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

export async function deliver(url: string, event: StripeEvent, secret: string, timestamp: number): Promise<Delivery> {
  const payload = JSON.stringify(event, null, 2);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signature(payload, secret, timestamp),
      },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return { event, status: res.status };
  } catch (err) {
    return { event, status: undefined, error: (err as Error).message };
  }
}
