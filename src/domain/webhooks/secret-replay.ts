import type { WebhookWithSecret } from '../../schemas/webhook.ts';
import type { Context } from '../core/context.ts';
import { openWebhookSecret, sealWebhookSecret } from '../../events/webhook-secrets.ts';

/**
 * An answer holding a signing secret, as its Idempotency-Key keeps it for 7 days: the secret sealed under SHIPD_SECRET,
 * as the webhook's own is, so a copy of the database alone cannot sign a delivery.
 */
export function keptWithSealedSecret(ctx: Context, answer: WebhookWithSecret): WebhookWithSecret {
  return answer.secret === null ? answer : { ...answer, secret: sealWebhookSecret(ctx.config.secret, answer.secret) };
}

/** A replay of that answer: the secret only while it is still the webhook's current one, else withheld with the reason. */
export async function replayedWithSecret(ctx: Context, kept: WebhookWithSecret): Promise<WebhookWithSecret> {
  const withheld = (reason: NonNullable<WebhookWithSecret['secret_withheld']>): WebhookWithSecret => ({ ...kept, secret: null, secret_withheld: reason });
  const row = await ctx.db.selectFrom('webhooks').select('secret').where('id', '=', kept.id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) return withheld('deleted');
  // An answer stored before secrets were sealed in it holds the plaintext: it opens to nothing and is never replayed.
  const secret = kept.secret === null ? null : openWebhookSecret(ctx.config.secret, kept.secret);
  if (secret === null) return withheld('unreadable');
  return secret === openWebhookSecret(ctx.config.secret, row.secret) ? { ...kept, secret, secret_withheld: null } : withheld('rotated');
}
