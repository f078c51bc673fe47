import { sql, type Kysely } from 'kysely';
import type { CardBoxRefundsTable, CardChargesTable, DB, ReturnChargeStatus, ShipmentsTable } from '../../db/schema.ts';
import { ApiError } from '../../kernel/errors.ts';
import { PaymentsRefused, PaymentsUnavailable, type StripeGateway } from '../../payments/stripe.ts';
import type { BillingDeps } from './payment-methods.ts';
import { stripeFor } from './stripe-customer.ts';
import { inTransaction } from '../core/transaction.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { recordEvent } from '../webhooks/events.ts';
import { ownerOf, toShipment } from '../shipments/shipments.ts';

/*
 * A live label bought with platform postage is paid by the account's card: Stripe holds the quoted postage before
 * the carrier is asked (a decline buys nothing), the hold is captured once the label is stored, released if no
 * label comes of it, and refunded when the label is voided. Each step is recorded before and after Stripe is
 * asked, and each Stripe request carries a key made of the shipment's id, so the settle job can finish whatever a
 * crash or a lost answer interrupted without ever charging twice: once settled, a label has one charge and a
 * purchase without a label has none. A return paid on use has no hold while unused: its first scan records the
 * charge, and the card is then held and captured at once, by the same steps. A box voided on its own gets its share
 * back as a partial refund once the charge is captured (card_box_refunds); the whole label's refund then gives back
 * whatever is left, so a label's refunds never add up to more than its charge.
 *
 * A return paid on use is already on its way when its card is asked, so a decline cannot undo it: the postage is owed
 * (the shipment's charge_status `past_due`, told by shipment.updated) and the settle job asks again on a schedule,
 * and at once when the account saves a card. Each ask is a new attempt, under its own Stripe key; one is asked at a
 * time (the move from `declined` to `authorizing` lets one process through), and only one can succeed, as a
 * successful hold ends the asking.
 */

/** Whether the label's postage goes on a card: live platform postage. Test mode's methods never reach Stripe. */
export const isCardBilled = (row: Pick<ShipmentsTable, 'payment' | 'mode'>): boolean => row.payment === 'platform' && row.mode === 'live';

/** Whether the card is held as the label is bought: not for a return paid on use, whose card is charged at its first scan. */
export const heldAtPurchase = (row: Pick<ShipmentsTable, 'payment' | 'mode' | 'return_charge'>): boolean => isCardBilled(row) && row.return_charge !== 'on_use';

/** The card and customer a live purchase will be charged to, read before anything is recorded. */
export async function cardFor(db: Kysely<DB>, accountId: string, paymentMethod: string): Promise<{ customer: string; paymentMethod: string }> {
  const customer = await db.selectFrom('billing_customers').select('customer_id').where('account_id', '=', accountId).executeTakeFirst();
  if (!customer) throw new ApiError('payment_method_required', "The account's live card is not held by this server's Stripe account; save it again on the dashboard's Billing page");
  return { customer: customer.customer_id, paymentMethod };
}

/**
 * The charge's record, in the transaction that records the purchase (there is never a hold shipd does not know of),
 * or for a return paid on use, in the one that records its first scan: then for its postage, from then. One per
 * label, whichever transaction gets there first.
 */
export async function openCardCharge(
  trx: Kysely<DB>,
  row: Pick<ShipmentsTable, 'id' | 'account_id' | 'quoted_cents' | 'created_at'>,
  card: { customer: string; paymentMethod: string },
  charge: { cents: number; at: string } = { cents: row.quoted_cents, at: row.created_at },
): Promise<void> {
  await trx
    .insertInto('card_charges')
    .values({
      shipment_id: row.id,
      account_id: row.account_id,
      customer_id: card.customer,
      payment_method: card.paymentMethod,
      amount_cents: charge.cents,
      payment_intent_id: null,
      status: 'authorizing',
      captured_cents: null,
      refund_id: null,
      last_error: null,
      attempts: 1,
      retry_at: null,
      created_at: charge.at,
      updated_at: charge.at,
    })
    .onConflict((oc) => oc.column('shipment_id').doNothing())
    .execute();
}

async function chargeOf(db: Kysely<DB>, shipmentId: string): Promise<CardChargesTable | undefined> {
  return db.selectFrom('card_charges').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirst();
}

/** Moves the charge on from `from`; false when it is no longer there (another request or the settle job moved it). */
async function move(deps: BillingDeps, shipmentId: string, from: CardChargesTable['status'], set: Partial<CardChargesTable>): Promise<boolean> {
  const moved = await deps.db
    .updateTable('card_charges')
    .set({ ...set, updated_at: deps.clock.now().toISOString() })
    .where('shipment_id', '=', shipmentId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

async function gateway(deps: BillingDeps): Promise<StripeGateway> {
  const stripe = await stripeFor(deps.config);
  if (!stripe) throw new ApiError('billing_not_configured', 'This server no longer has STRIPE_SECRET_KEY set, so the card cannot be charged; nothing was bought');
  return stripe;
}

/**
 * Holds the postage on the card before the carrier is asked. Null when it is held; otherwise the problem to answer
 * with (the caller marks the purchase failed): a decline, a card that needs its holder, or Stripe out of reach.
 */
export async function authorizeCardCharge(deps: BillingDeps, row: Pick<ShipmentsTable, 'id' | 'account_id'>): Promise<ApiError | null> {
  const charge = await chargeOf(deps.db, row.id);
  if (!charge) return new ApiError('payment_method_required', `The purchase ${row.id} has no card charge recorded`);
  if (charge.status === 'authorized') return null;
  if (charge.status !== 'authorizing') return new ApiError('payment_declined', `The card charge for ${row.id} is ${charge.status}; nothing was bought`);
  const stripe = await gateway(deps);
  let outcome;
  try {
    outcome = await stripe.authorize({
      shipmentId: row.id,
      accountId: row.account_id,
      customer: charge.customer_id,
      paymentMethod: charge.payment_method,
      amountCents: charge.amount_cents,
      // From the shipment alone: a retry must send Stripe the very same request, or its key is refused.
      description: hasPrefix(row.id, 'pku') ? `Carrier pickup for shipd pickup ${row.id}` : `Postage for shipd label ${row.id}`,
      attempt: charge.attempts,
    });
  } catch (err) {
    if (err instanceof PaymentsRefused) {
      await move(deps, row.id, 'authorizing', { status: 'declined', last_error: err.message });
      return new ApiError('payment_declined', `${err.message}. Save the card again on the dashboard's Billing page; nothing was bought`);
    }
    if (err instanceof PaymentsUnavailable) {
      // Stripe may have held the money without our hearing of it: the charge stays `authorizing`, and the settle
      // job asks Stripe again with the same key and lets go of any hold it finds.
      await move(deps, row.id, 'authorizing', { last_error: err.message });
      return new ApiError('billing_unavailable', `${err.message}. Nothing was bought; try again shortly`);
    }
    throw err;
  }
  if (!outcome.ok) {
    await move(deps, row.id, 'authorizing', { status: 'declined', last_error: outcome.message });
    if (outcome.refusal === 'authentication_required') {
      return new ApiError(
        'payment_authentication_required',
        `The card's bank asks its holder to authenticate this charge, which cannot happen while shipd charges it on its own; nothing was bought. Save the card again on the dashboard's Billing page (Stripe's page authenticates it for later charges), or save another card`,
      );
    }
    const reason = outcome.declineCode ?? outcome.code;
    return new ApiError('payment_declined', `The card was declined (${reason}): ${outcome.message}. Nothing was bought`, undefined, undefined, reason);
  }
  if (await move(deps, row.id, 'authorizing', { status: 'authorized', payment_intent_id: outcome.paymentIntent, last_error: null })) return null;
  if ((await chargeOf(deps.db, row.id))?.status !== 'released') return null;
  // Stripe answered after the purchase had been given up (Stripe slower than a purchase may take, so the reconcile
  // job took it for a crash's, abandoned it and settled its charge): the hold is recorded so that the purchase's
  // settle step lets go of it, and the carrier is not asked for a label that nobody would record or charge.
  await move(deps, row.id, 'released', { status: 'authorized', payment_intent_id: outcome.paymentIntent });
  return new ApiError('billing_unavailable', `Stripe answered the charge for ${row.id} only after the purchase was given up; nothing was bought, and the hold is let go of. Try again`);
}

/** What the card is charged for a label: its postage, never more than the hold the client's accepted price made. */
export async function cardChargeCents(db: Kysely<DB>, shipmentId: string, postageCents: number): Promise<number> {
  const charge = await chargeOf(db, shipmentId);
  return charge ? Math.min(postageCents, charge.amount_cents) : postageCents;
}

async function capture(deps: BillingDeps, stripe: StripeGateway, charge: CardChargesTable, postageCents: number): Promise<void> {
  const captured = await stripe.capture(charge.payment_intent_id!, charge.shipment_id, Math.min(postageCents, charge.amount_cents));
  if ((await recordCapture(deps, charge.shipment_id, captured)) === 'refund_due') await refund(deps, stripe, charge);
}

/**
 * Records a capture Stripe made. The label may have been voided since the capture was asked for, and the void's
 * transaction may have found the charge still a hold (so markRefundDue left it): a capture recorded on a label no
 * longer bought is owed back at once. Both transactions write this row, so whichever commits second sees the other.
 */
async function recordCapture(deps: BillingDeps, shipmentId: string, capturedCents: number): Promise<CardChargesTable['status'] | undefined> {
  return inTransaction(deps.db, async (trx) => {
    const at = deps.clock.now().toISOString();
    await showReturnCharge(deps, trx, shipmentId, 'paid', at);
    await trx
      .updateTable('card_charges')
      .set({ status: 'captured', captured_cents: capturedCents, last_error: null, updated_at: at })
      .where('shipment_id', '=', shipmentId)
      .where('status', '=', 'authorized')
      .execute();
    await trx
      .updateTable('card_charges')
      .set({ status: 'refund_due', updated_at: at })
      .where('shipment_id', '=', shipmentId)
      .where('status', '=', 'captured')
      .where(({ exists, selectFrom }) => exists(selectFrom('shipments').select('id').where('id', '=', shipmentId).where('status', '<>', 'purchased')))
      .execute();
    // A priced pickup's charge is keyed by the pickup's id: one cancelled meanwhile is owed back the same way.
    await trx
      .updateTable('card_charges')
      .set({ status: 'refund_due', updated_at: at })
      .where('shipment_id', '=', shipmentId)
      .where('status', '=', 'captured')
      .where(({ exists, selectFrom }) => exists(selectFrom('pickups').select('id').where('id', '=', shipmentId).where('status', '=', 'cancelled')))
      .execute();
    return (await chargeOf(trx, shipmentId))?.status;
  });
}

async function release(deps: BillingDeps, stripe: StripeGateway, charge: CardChargesTable): Promise<void> {
  await stripe.release(charge.payment_intent_id!, charge.shipment_id);
  await move(deps, charge.shipment_id, charge.status, { status: 'released', last_error: null });
}

async function refund(deps: BillingDeps, stripe: StripeGateway, charge: CardChargesTable): Promise<void> {
  const id = await stripe.refund(charge.payment_intent_id!, charge.shipment_id);
  await move(deps, charge.shipment_id, 'refund_due', { status: 'refunded', refund_id: id, last_error: null });
}

/**
 * In the void's transaction: a captured charge is now owed back, whatever happens to the process next. The row is
 * written whatever its status, so that a capture being recorded at the same moment waits for the void (PostgreSQL
 * then re-reads the row) or is seen by it: a hold captured meanwhile is found owed back by recordCapture.
 */
export async function markRefundDue(trx: Kysely<DB>, shipmentId: string, at: string): Promise<void> {
  await trx
    .updateTable('card_charges')
    .set({ status: sql<CardChargesTable['status']>`case when status = 'captured' then 'refund_due' else status end`, updated_at: at })
    .where('shipment_id', '=', shipmentId)
    .execute();
}

/**
 * In a box void's transaction: the box's share, as the ledger gave it back, is now owed to the card. Nothing where
 * the label has no card charge yet (a return paid on use before its first scan, which charges only the boxes left).
 */
export async function markBoxRefundDue(trx: Kysely<DB>, shipmentId: string, box: number, cents: number, at: string): Promise<void> {
  if (cents <= 0 || !(await chargeOf(trx, shipmentId))) return;
  await trx
    .insertInto('card_box_refunds')
    .values({ shipment_id: shipmentId, box, amount_cents: cents, status: 'due', refund_id: null, last_error: null, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['shipment_id', 'box']).doNothing())
    .execute();
}

async function moveBox(deps: BillingDeps, refund: CardBoxRefundsTable, set: Partial<CardBoxRefundsTable>): Promise<void> {
  await deps.db
    .updateTable('card_box_refunds')
    .set({ ...set, updated_at: deps.clock.now().toISOString() })
    .where('shipment_id', '=', refund.shipment_id)
    .where('box', '=', refund.box)
    .where('status', '=', 'due')
    .execute();
}

/**
 * The boxes' partial refunds still due. They wait for the capture (a hold is captured whole, then refunded in part);
 * a charge let go of, or refunded whole since the label was voided, took every box's share with it, which makes them
 * `covered`. The whole refund may also reach Stripe while a box's is on its way: Stripe then refuses the box's, with
 * nothing left to refund.
 */
async function settleBoxRefunds(deps: BillingDeps, shipmentId: string): Promise<void> {
  const due = await deps.db.selectFrom('card_box_refunds').selectAll().where('shipment_id', '=', shipmentId).where('status', '=', 'due').orderBy('box').execute();
  if (due.length === 0) return;
  const charge = await chargeOf(deps.db, shipmentId);
  if (!charge || charge.status === 'authorizing' || charge.status === 'authorized') return;
  if (charge.status !== 'captured') {
    for (const refund of due) await moveBox(deps, refund, { status: 'covered', last_error: null });
    return;
  }
  const stripe = await gateway(deps);
  for (const refund of due) {
    try {
      const id = await stripe.refundBox(charge.payment_intent_id!, shipmentId, refund.box + 1, refund.amount_cents);
      await moveBox(deps, refund, { status: 'refunded', refund_id: id, last_error: null });
    } catch (err) {
      if (err instanceof PaymentsRefused && (await chargeOf(deps.db, shipmentId))?.status !== 'captured') {
        await moveBox(deps, refund, { status: 'covered', last_error: null });
        continue;
      }
      await moveBox(deps, refund, { last_error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }
}

type Shipment = Pick<ShipmentsTable, 'id' | 'account_id' | 'status' | 'postage_cents' | 'quoted_cents' | 'return_charge' | 'packages'>;
const settledColumns = ['id', 'account_id', 'status', 'postage_cents', 'quoted_cents', 'return_charge', 'packages'] as const;

/**
 * Brings a label's card charge to where its shipment says it should be: captured for a bought label, released for
 * a purchase that bought nothing or a label voided before its capture, refunded for a voided one, and the share of
 * each box voided on its own refunded. Every step is safe to repeat; a step Stripe cannot take now is left for the
 * settle job.
 */
export async function settleCardCharge(deps: BillingDeps, shipment: Shipment): Promise<void> {
  await settleHold(deps, shipment);
  // Only a label of several boxes has boxes to void on their own: a one-box label is not asked about them.
  if (shipment.packages !== null) await settleBoxRefunds(deps, shipment.id);
}

async function settleHold(deps: BillingDeps, shipment: Shipment): Promise<void> {
  let charge = await chargeOf(deps.db, shipment.id);
  if (!charge || shipment.status === 'pending') return;
  const bought = shipment.status === 'purchased';
  // A return paid on use is charged after its label is in the carrier's hands: its first scan opened this charge,
  // and a decline leaves the postage owed, asked for again.
  const owed = bought && shipment.return_charge === 'on_use';
  let asked = false;
  if (owed && charge.status === 'declined') {
    if (!(await claimRetry(deps, charge))) return;
    await authorizeCardCharge(deps, shipment);
    asked = true;
    charge = (await chargeOf(deps.db, shipment.id))!;
  }
  const stripe = await gateway(deps);
  if (charge.status === 'authorizing' && !asked) {
    // The hold's answer was lost (a crash, or Stripe out of reach): whatever Stripe did is found and let go of.
    // A purchase only goes on to the carrier with its hold recorded, so no label waits on this charge.
    const found = await stripe.findHold(charge.customer_id, charge.shipment_id, new Date(charge.created_at), charge.attempts);
    if (found) {
      await move(deps, charge.shipment_id, 'authorizing', { status: found.held ? 'authorized' : 'declined', payment_intent_id: found.paymentIntent });
    } else if (owed) {
      // The card is asked now (a decline or Stripe out of reach is recorded on the charge by the ask itself).
      await authorizeCardCharge(deps, shipment);
    } else {
      await move(deps, charge.shipment_id, 'authorizing', { status: 'released', last_error: null });
      return;
    }
    charge = (await chargeOf(deps.db, shipment.id))!;
  }
  if (owed && charge.status === 'declined') {
    await scheduleRetry(deps, charge);
    return;
  }
  try {
    if (charge.status === 'authorized') {
      if (bought) await capture(deps, stripe, charge, shipment.postage_cents ?? shipment.quoted_cents);
      else await release(deps, stripe, charge);
    } else if (charge.status === 'refund_due') {
      await refund(deps, stripe, charge);
    }
  } catch (err) {
    // Stripe refusing a step it already took (its key's answer forgotten after a day, say) would be refused for
    // ever: the record follows what Stripe says happened instead.
    if (!(err instanceof PaymentsRefused)) throw err;
    await followStripe(deps, stripe, charge, err);
  }
}

/**
 * How long after each declined attempt the card of a past-due return is asked again by itself: a day, then 2, 4 and 7
 * days (five asks over two weeks), after which only a card saved on the account asks again. Card networks count
 * the asks made of a declined card (Visa allows 15 in 30 days), so they are few and spread out.
 */
const retryDelaysMs = [1, 2, 4, 7].map((days) => days * 86_400_000);

/**
 * A declined attempt of a return's charge: the shipment shows the debt (past_due, with its shipment.updated), and the
 * next ask is scheduled, unless the schedule has run out. Written once per attempt.
 */
async function scheduleRetry(deps: BillingDeps, charge: CardChargesTable): Promise<void> {
  const now = deps.clock.now();
  const delay = retryDelaysMs[charge.attempts - 1];
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable('card_charges')
      .set({ retry_at: delay === undefined ? null : new Date(now.getTime() + delay).toISOString() })
      .where('shipment_id', '=', charge.shipment_id)
      .where('status', '=', 'declined')
      .where('attempts', '=', charge.attempts)
      .execute();
    await showReturnCharge(deps, trx, charge.shipment_id, 'past_due', now.toISOString());
  });
}

/**
 * Takes the next attempt of a declined return's charge once it is due, with the card the account has now (the one
 * that declined, or the one saved since). False when it is not due, another process took it, or the account has no
 * card left to ask (saving one schedules the attempt).
 */
async function claimRetry(deps: BillingDeps, charge: CardChargesTable): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  if (charge.retry_at === null || charge.retry_at > now) return false;
  const card = await deps.db
    .selectFrom('billing_customers')
    .innerJoin('payment_methods', (j) => j.onRef('payment_methods.account_id', '=', 'billing_customers.account_id').on('payment_methods.mode', '=', 'live'))
    .select(['billing_customers.customer_id', 'payment_methods.payment_method'])
    .where('billing_customers.account_id', '=', charge.account_id)
    .executeTakeFirst();
  const next = card
    ? { status: 'authorizing' as const, attempts: charge.attempts + 1, customer_id: card.customer_id, payment_method: card.payment_method, payment_intent_id: null }
    : {};
  const claimed = await deps.db
    .updateTable('card_charges')
    .set({ ...next, retry_at: null, updated_at: now })
    .where('shipment_id', '=', charge.shipment_id)
    .where('status', '=', 'declined')
    .where('attempts', '=', charge.attempts)
    .where('retry_at', '=', charge.retry_at)
    .executeTakeFirst();
  return card !== undefined && Number(claimed.numUpdatedRows) === 1;
}

/**
 * In the caller's transaction: a return paid on use whose charge moved on shows it (charge_status), told by a
 * shipment.updated event; nothing for any other label, or when it already shows it.
 */
async function showReturnCharge(deps: BillingDeps, trx: Kysely<DB>, shipmentId: string, status: ReturnChargeStatus, at: string): Promise<void> {
  const changed = await trx
    .updateTable('shipments')
    .set({ charge_status: status, updated_at: at })
    .where('id', '=', shipmentId)
    .where('return_charge', '=', 'on_use')
    .where('charge_status', 'is not', null)
    .where('charge_status', '<>', status)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) return;
  const row = await trx.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirstOrThrow();
  await recordEvent(trx, ownerOf(row), 'shipment.updated', toShipment(deps, row), at);
}

/**
 * A card saved for the account (set up on Stripe's page, given to the CLI, or its expiry brought up to date): the
 * returns it owes for are asked again at once, by the settle job's next round, whatever their schedule said.
 */
export async function retryOwedCharges(db: Kysely<DB>, accountId: string, at: string): Promise<void> {
  await db
    .updateTable('card_charges')
    .set({ retry_at: at })
    .where('account_id', '=', accountId)
    .where('status', '=', 'declined')
    .where('shipment_id', 'in', (eb) => eb.selectFrom('shipments').select('id').where('account_id', '=', accountId).where('charge_status', '=', 'past_due').where('status', '=', 'purchased'))
    .execute();
}

async function followStripe(deps: BillingDeps, stripe: StripeGateway, charge: CardChargesTable, refusal: PaymentsRefused): Promise<void> {
  const now = await stripe.holdState(charge.payment_intent_id!);
  if (now.state === 'captured' && charge.status === 'authorized') {
    // Charged for a label perhaps voided meanwhile: then owed back, which the next round does.
    await recordCapture(deps, charge.shipment_id, now.capturedCents);
    return;
  }
  const settled: Partial<Record<typeof now.state, Partial<CardChargesTable>>> = {
    refunded: { status: 'refunded', captured_cents: now.capturedCents },
    released: { status: 'released' },
  };
  const next = settled[now.state];
  if (!next || !next.status) throw refusal;
  await move(deps, charge.shipment_id, charge.status, { ...next, last_error: null });
}

/** After a request's own step, best effort: what fails here is the settle job's to finish. */
export async function settleCardChargeNow(deps: BillingDeps, shipmentId: string): Promise<void> {
  const shipment = await deps.db.selectFrom('shipments').select(settledColumns).where('id', '=', shipmentId).executeTakeFirstOrThrow();
  try {
    await settleCardCharge(deps, shipment);
  } catch (err) {
    await deps.db
      .updateTable('card_charges')
      .set({ last_error: err instanceof Error ? err.message : String(err) })
      .where('shipment_id', '=', shipmentId)
      .execute();
  }
}

/** The settle job: card charges a crash or a lost answer left unsettled, once their purchase or void is over. */
export async function settleCardCharges(deps: BillingDeps, staleMs: number, log: { info(o: object, m: string): void; error(o: object, m: string): void }): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - staleMs).toISOString();
  const rows = await deps.db
    .selectFrom('card_charges')
    .innerJoin('shipments', 'shipments.id', 'card_charges.shipment_id')
    .select([...settledColumns.map((c) => `shipments.${c}` as const), 'card_charges.status as charge'])
    .where('card_charges.status', 'in', ['authorizing', 'authorized', 'refund_due'])
    .where('card_charges.updated_at', '<=', before)
    .where('shipments.status', '<>', 'pending')
    .orderBy('card_charges.updated_at')
    .limit(100)
    .execute();
  // Past-due returns whose next ask has come, whenever their row last changed.
  const retries = await deps.db
    .selectFrom('card_charges')
    .innerJoin('shipments', 'shipments.id', 'card_charges.shipment_id')
    .select([...settledColumns.map((c) => `shipments.${c}` as const), 'card_charges.status as charge'])
    .where('card_charges.retry_at', '<=', deps.clock.now().toISOString())
    .where('card_charges.status', '=', 'declined')
    .where('shipments.status', '=', 'purchased')
    .orderBy('card_charges.retry_at')
    .limit(100)
    .execute();
  rows.push(...retries);
  // A box's refund waits on its charge: one of those above, or a captured charge whose boxes' refunds are left.
  const boxes = await deps.db
    .selectFrom('card_box_refunds')
    .innerJoin('shipments', 'shipments.id', 'card_box_refunds.shipment_id')
    .innerJoin('card_charges', 'card_charges.shipment_id', 'card_box_refunds.shipment_id')
    .select([...settledColumns.map((c) => `shipments.${c}` as const), 'card_charges.status as charge'])
    .distinct()
    .where('card_box_refunds.status', '=', 'due')
    .where('card_box_refunds.updated_at', '<=', before)
    .limit(100)
    .execute();
  for (const box of boxes) if (!rows.some((r) => r.id === box.id)) rows.push(box);
  for (const row of rows) {
    try {
      await settleCardCharge(deps, row);
      log.info({ shipment: row.id, was: row.charge }, 'settled a card charge');
    } catch (err) {
      await deps.db.updateTable('card_charges').set({ last_error: err instanceof Error ? err.message : String(err), updated_at: deps.clock.now().toISOString() }).where('shipment_id', '=', row.id).execute();
      log.error({ shipment: row.id, err }, 'could not settle a card charge');
    }
  }
  return rows.length;
}
