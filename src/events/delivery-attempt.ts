import type { Dispatcher } from 'undici';
import { undici } from '../kernel/undici.ts';
import type { Clock } from '../kernel/clock.ts';
import { deliveryRefusal, type GuardOptions } from './address-guard.ts';
import type { Claimed } from './delivery-claim.ts';
import { parseRetryAfter } from './retry-schedule.ts';
import { signatureHeader } from './signature.ts';
import { openWebhookSecret } from './webhook-secrets.ts';

/**
 * The log keeps a short excerpt of a receiver's answer, and only of a text one: enough to tell an error page from an
 * answer, without keeping what a foreign host says at length.
 */
const excerptLength = 100;
const textTypes = /^(text\/|application\/([\w.+-]+\+)?(json|xml)\b|application\/x-www-form-urlencoded\b)/i;
/** Past this much of an answer the rest is thrown away: the log keeps only an excerpt. */
const readLimit = 64 * 1024;

export interface Outcome {
  claimed: Claimed;
  attemptedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  retryAfterMs: number | null;
}

/** The body Standard Webhooks receivers expect; `data` is stored as the API's JSON and goes out unparsed. */
function payload(c: Claimed): string {
  return `{"type":${JSON.stringify(c.type)},"timestamp":${JSON.stringify(c.createdAt)},"data":${c.data}}`;
}

/** The excerpt of a text answer, whitespace runs as one space; null for any other (an answer without a type counts as text). */
async function readExcerpt(res: Dispatcher.ResponseData): Promise<string | null> {
  const type = res.headers['content-type'];
  const isText = type === undefined || textTypes.test(String(type));
  let text = '';
  let read = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    read += chunk.length;
    // Whitespace is collapsed below, so a few times the excerpt's length is always enough to fill it.
    if (isText && text.length < excerptLength * 4) text += chunk.toString('utf8');
    if (read > readLimit) {
      res.body.destroy();
      break;
    }
  }
  if (!isText) return null;
  // Control characters become U+FFFD: PostgreSQL's text cannot hold NUL, and one receiver's answer must not fail the
  // batch its outcome is recorded with.
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  return text.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD').slice(0, excerptLength);
}

function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  if (code === 'ERR_WEBHOOK_ADDRESS_BLOCKED') return e.cause?.message ?? e.message ?? 'address not allowed';
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timed out';
  return [code, e.cause?.message ?? e.message].filter(Boolean).join(': ') || 'network error';
}

/** The secrets that sign now, opened; null when the current one was sealed under another SHIPD_SECRET. */
function secrets(c: Claimed, shipdSecret: string, now: Date): string[] | null {
  const current = openWebhookSecret(shipdSecret, c.secret);
  if (current === null) return null;
  const previousValid = c.previousSecret && c.previousSecretExpiresAt && c.previousSecretExpiresAt > now.toISOString();
  const previous = previousValid ? openWebhookSecret(shipdSecret, c.previousSecret!) : null;
  return previous === null ? [current] : [current, previous];
}

/** Sends one attempt of a claimed delivery, signed as Standard Webhooks prescribes: a network error is an outcome too. */
export async function sendAttempt(c: Claimed, clock: Clock, dispatcher: Dispatcher, timeoutMs: number, shipdSecret: string, guard: Pick<GuardOptions, 'allowInsecure' | 'ports'>): Promise<Outcome> {
  const attemptedAt = clock.now();
  // The receiver checks webhook-timestamp against its own clock to refuse replays, so it is the real time even
  // when shipd's clock is a simulated one.
  const signedAt = new Date();
  const body = payload(c);
  const started = performance.now();
  const result: Omit<Outcome, 'latencyMs'> = { claimed: c, attemptedAt, statusCode: null, error: null, excerpt: null, retryAfterMs: null };
  const refusal = deliveryRefusal(c.url, guard);
  if (refusal !== null) return { ...result, error: `not sent: ${refusal}`, latencyMs: 0 };
  const signing = secrets(c, shipdSecret, attemptedAt);
  if (signing === null) {
    // Sending it unsigned, or signed with something else, would only teach the receiver to distrust it.
    return { ...result, error: "not sent: the webhook's signing secret was sealed under another SHIPD_SECRET; rotate the secret", latencyMs: 0 };
  }
  try {
    const { request } = await undici();
    const res = await request(c.url, {
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'shipd-webhooks/1',
        'webhook-id': c.eventId,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signatureHeader(signing, c.eventId, signedAt, body),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    result.statusCode = res.statusCode;
    result.retryAfterMs = parseRetryAfter(res.headers['retry-after'], attemptedAt);
    result.excerpt = await readExcerpt(res);
    if (res.statusCode < 200 || res.statusCode >= 300) result.error = `answered ${res.statusCode}`;
  } catch (err) {
    result.error = describe(err);
  }
  return { ...result, latencyMs: Math.round(performance.now() - started) };
}
