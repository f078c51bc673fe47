import { Webhook } from 'standardwebhooks';

/** Parsing a secret costs a base64 decode and a key import; a busy endpoint is signed for thousands of times. */
const signers = new Map<string, Webhook>();

function signer(secret: string): Webhook {
  let s = signers.get(secret);
  if (!s) {
    if (signers.size > 10_000) signers.clear();
    s = new Webhook(secret);
    signers.set(secret, s);
  }
  return s;
}

/**
 * The Standard Webhooks `webhook-signature` header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>` for each
 * secret, space-separated, so a receiver holding either secret during a rotation verifies it.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => signer(secret).sign(messageId, timestamp, body)).join(' ');
}
