import { sql, type Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { CarrierManifestState, DB, ManifestsTable, ShipmentsTable, StoredCarrierForm } from '../../db/schema.ts';
import type { Carrier, CarrierFailure, CarrierForm, ClosingLabel } from '../../carriers/carrier.ts';
import { carrierForShipment } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import { carrierName } from '../../carriers/catalog.ts';
import type { Manifest, ManifestCreate } from '../../schemas/manifest.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { money } from '../core/money.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { countryOf, isUsAddress } from '../addresses/address-rules.ts';
import { labelUrl, ownerOf, serviceName, type PurchaseRecord } from '../shipments/shipments.ts';
import { fingerprint, idempotencyTtlMs } from '../core/idempotency.ts';
import { inTransaction } from '../core/transaction.ts';

/** What each carrier calls the form a driver scans to accept the day's parcels. */
const formTitles: Record<CarrierId, string> = {
  usps: 'USPS SCAN Form',
  ups: 'UPS End of Day Summary',
  fedex: 'FedEx Ground Close Manifest',
};


/** The labels on each of these manifests, in one query however many there are. */
export async function shipmentIds(db: Kysely<DB>, manifestIds: string[]): Promise<Map<string, string[]>> {
  const byManifest = new Map<string, string[]>(manifestIds.map((id) => [id, []]));
  if (manifestIds.length === 0) return byManifest;
  const rows = await db.selectFrom('shipments').select(['id', 'manifest_id']).where('manifest_id', 'in', manifestIds).orderBy('id').execute();
  for (const row of rows) byManifest.get(row.manifest_id!)!.push(row.id);
  return byManifest;
}

export function toManifest(ctx: Pick<Context, 'config' | 'clock'>, row: ManifestsTable, ids: string[]): Manifest {
  return {
    id: row.id,
    object: 'manifest',
    carrier: row.carrier as CarrierId,
    ship_date: row.ship_date,
    shipment_ids: ids,
    shipment_count: row.shipment_count,
    total_weight: { value: row.total_weight_oz / 16, unit: 'lb' },
    total_postage: money(row.total_postage_cents),
    form_url: labelUrl(ctx, row.id, 'pdf'),
    carrier_manifest: row.carrier_manifest,
    carrier_forms: JSON.parse(row.carrier_forms) as StoredCarrierForm[],
    carrier_error: row.carrier_error,
    mode: row.mode,
    created_at: row.created_at,
  };
}

/**
 * The labels the form will list. Given ids must each be the key's purchased, unmanifested outbound label of this
 * carrier and day; each one that is not is named.
 */
async function labelsToManifest(db: Kysely<DB>, ctx: Context, input: ManifestCreate): Promise<ShipmentsTable[]> {
  let q = db
    .selectFrom('shipments')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('carrier', '=', input.carrier)
    .where('status', '=', 'purchased')
    .where('is_return', '=', 0)
    .where('manifest_id', 'is', null)
    .where('ship_date', '=', input.ship_date)
    .orderBy('id');
  if (input.shipment_ids) q = q.where('id', 'in', input.shipment_ids);
  const rows = await q.execute();
  if (input.shipment_ids && rows.length < input.shipment_ids.length) {
    const found = new Set(rows.map((r) => r.id));
    const errors: FieldError[] = input.shipment_ids.flatMap((id, i) =>
      found.has(id)
        ? []
        : [{ in: 'body' as const, pointer: `/shipment_ids/${i}`, detail: `${id} is not a purchased, unmanifested outbound ${input.carrier} label of yours for ${input.ship_date}` }],
    );
    throw new ApiError('validation_failed', `${errors.length} of the shipment_ids cannot go on this manifest`, errors);
  }
  if (rows.length === 0) {
    throw new ApiError('nothing_to_manifest', `You have no purchased ${carrierName(input.carrier)} labels for ${input.ship_date} that are not on a manifest yet`);
  }
  return rows;
}

/** Tries before a manifest whose labels keep changing under it (voided, or taken by a rival manifest) gives up. */
const manifestTries = 3;

/**
 * Whether the carrier's own forms take the place of shipd's summary at form_url: USPS's SCAN forms are what the
 * driver scans, so they are the file; FedEx's close reports follow the summary, which also lists labels FedEx's
 * Ground close does not (Express).
 */
const carrierFormsReplaceSummary: Record<CarrierId, boolean> = { usps: true, ups: false, fedex: false };

/**
 * How long the request asking the carriers holds a pending manifest before the worker may take it for abandoned
 * (a crash): the carriers' time-out, and time to store their forms after. Within the Idempotency-Key's own hold
 * (idempotencyStore), so a retry that takes over the key finds the manifest free to finish.
 */
export function manifestLeaseMs(ctx: Pick<Context, 'config'>): number {
  return ctx.config.carrierTimeoutMs + 10_000;
}

/**
 * POST /manifests: the end-of-day form for a carrier and day. The labels on it are handed over and can no longer be
 * voided, as a real carrier refuses to void what it has accepted.
 *
 * The form is drawn before the transaction, not inside it: a form of a thousand labels takes a while to draw, and
 * on SQLite a transaction holds the only connection. The transaction then claims exactly the labels drawn, and if
 * any of them changed meanwhile, the form is drawn again from what is there now.
 *
 * With a live key the carrier is told after the claim (closeDay), which is committed first as `pending`: a label
 * being handed over cannot be voided while the carrier makes its form, and a crash before the carrier's answer is
 * recorded leaves a row that the worker, or a retry with the same Idempotency-Key, finishes (finishManifest). A
 * carrier that refuses gives the labels back, and the manifest is not made.
 */
export async function createManifest(ctx: Context, input: ManifestCreate): Promise<Manifest> {
  const earlier = await manifestByKey(ctx, input);
  if (earlier) return resumeManifest(ctx, earlier);
  const now = ctx.clock.now();
  const id = newId('man', now.getTime());
  const live = ctx.principal.mode === 'live';
  for (let tries = 1; ; tries++) {
    const rows = await labelsToManifest(ctx.db, ctx, input);
    const clients = live ? await closingClients(ctx, rows) : [];
    const state: CarrierManifestState = !live ? 'simulated' : clients.some((c) => c.carrier.closeDay) ? 'pending' : 'not_required';
    const { manifest, pdf } = await drawManifest(ctx, input, id, now, rows, state);
    manifest.idempotency_key = ctx.idempotencyKey ?? null;
    if (state === 'pending') manifest.locked_until = new Date(now.getTime() + manifestLeaseMs(ctx)).toISOString();
    await ctx.labels.put(ctx.db, id, 'pdf', pdf, manifest.created_at);
    const made = toManifest(ctx, manifest, rows.map((r) => r.id));
    try {
      await inTransaction(ctx.db, async (trx) => {
        const updated = await trx
          .updateTable('shipments')
          .set({ manifest_id: id, updated_at: manifest.created_at })
          .where('id', 'in', rows.map((r) => r.id))
          .where('status', '=', 'purchased')
          .where('manifest_id', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== rows.length) {
          throw new ApiError('labels_changed', `The labels for this manifest changed while it was being made (voided, or put on another manifest) ${manifestTries} times; try again`);
        }
        await trx.insertInto('manifests').values(manifest).execute();
        if (state !== 'pending') await ctx.answer?.(trx, made);
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'labels_changed') || tries === manifestTries) throw err;
      continue;
    }
    if (state !== 'pending') return made;
    return tellCarrier(ctx, manifest, pdf, rows, clients);
  }
}

/**
 * The manifest this Idempotency-Key made within the key's 7 days, if any. The HTTP layer forgets a key whose
 * request failed with a 5xx (a crash, a carrier that did not answer), so a retry reaches here; one for another
 * carrier or day is refused, not answered.
 */
async function manifestByKey(ctx: Context, input: ManifestCreate): Promise<ManifestsTable | undefined> {
  if (!ctx.idempotencyKey) return undefined;
  const row = await ctx.db
    .selectFrom('manifests')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('idempotency_key', '=', ctx.idempotencyKey)
    .where('created_at', '>', new Date(ctx.clock.now().getTime() - idempotencyTtlMs).toISOString())
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const listed = input.shipment_ids ? (await shipmentIds(ctx.db, [row.id])).get(row.id)! : [];
  const sameLabels = !input.shipment_ids || fingerprint([...input.shipment_ids].sort()) === fingerprint([...listed].sort());
  if (row.carrier !== input.carrier || row.ship_date !== input.ship_date || !sameLabels) {
    throw new ApiError('idempotency_key_reused', `This Idempotency-Key already made the manifest ${row.id} for another request (${row.carrier} labels of ${row.ship_date}); use a new key for a new request`);
  }
  return row;
}

/** A retry of a manifest whose first request never answered: the manifest as it is, finishing it if it was left pending. */
async function resumeManifest(ctx: Context, row: ManifestsTable): Promise<Manifest> {
  if (row.carrier_manifest !== 'pending') return toManifest(ctx, row, (await shipmentIds(ctx.db, [row.id])).get(row.id)!);
  const finished = await finishManifest(ctx, row);
  if (finished === 'held') {
    throw new ApiError('idempotency_key_in_use', `The manifest ${row.id} with this Idempotency-Key is still being made; retry in a few seconds for its answer`);
  }
  return finished;
}

/** The labels of a manifest by the carrier client each was bought through: the platform's account, or the account's own. */
async function closingClients(ctx: Context, rows: ShipmentsTable[]): Promise<{ carrier: Carrier; rows: ShipmentsTable[] }[]> {
  const groups = new Map<string, ShipmentsTable[]>();
  for (const row of rows) {
    const key = row.payment === 'carrier_account' ? 'own' : 'platform';
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return Promise.all([...groups.values()].map(async (group) => ({ carrier: await carrierForShipment(ctx, group[0]!), rows: group })));
}

/** Each label's boxes still good (a box voided alone is not handed over), and where it leaves from. */
function closingLabel(row: ShipmentsTable): ClosingLabel {
  const record: PurchaseRecord = JSON.parse(row.purchase);
  const boxes = row.packages === null ? [row.tracking_number!] : (JSON.parse(row.packages) as { tracking_number: string; status?: string }[]).filter((b) => b.status === undefined).map((b) => b.tracking_number);
  return { trackingNumbers: boxes, service: row.service, from: record.from };
}

function carrierRefusal(carrier: Carrier, failure: CarrierFailure): ApiError {
  const so = 'the labels are not on a manifest and can still be voided';
  if (failure.code === 'manifest_rejected') return new ApiError('manifest_rejected', `${failure.detail}; ${so}`);
  if (failure.code === 'carrier_timeout') return new ApiError('carrier_timeout', `${failure.detail}; ${so}`);
  return new ApiError('carrier_error', `${carrier.name}: ${failure.detail}; ${so}`);
}

type Asked = { ok: true; required: boolean; forms: CarrierForm[] } | { ok: false; carrier: Carrier; failure: CarrierFailure };

/** Asks each carrier client for its forms of the day, one after another; the first refusal stops it. */
async function askCarriers(ctx: Context, shipDate: string, clients: { carrier: Carrier; rows: ShipmentsTable[] }[]): Promise<Asked> {
  const forms: CarrierForm[] = [];
  let required = false;
  for (const { carrier, rows: group } of clients) {
    const close = carrier.closeDay?.bind(carrier);
    if (!close) continue;
    const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => close({ shipDate, labels: group.map(closingLabel) }, signal));
    if (!outcome.ok) return { ok: false, carrier, failure: outcome.error };
    if (outcome.value.required) {
      required = true;
      forms.push(...outcome.value.forms);
    }
  }
  return { ok: true, required, forms };
}

/**
 * Asks the carriers, then records their forms; a refusal (a time-out too: the request is answered now, and a
 * retry asks again) releases every label and removes the manifest, so nothing is left half made.
 */
async function tellCarrier(ctx: Context, manifest: ManifestsTable, summary: Buffer, rows: ShipmentsTable[], clients: { carrier: Carrier; rows: ShipmentsTable[] }[]): Promise<Manifest> {
  const asked = await askCarriers(ctx, manifest.ship_date, clients);
  if (!asked.ok) {
    await inTransaction(ctx.db, async (trx) => {
      await trx.updateTable('shipments').set({ manifest_id: null }).where('manifest_id', '=', manifest.id).execute();
      await trx.deleteFrom('manifests').where('id', '=', manifest.id).where('carrier_manifest', '=', 'pending').execute();
    });
    throw carrierRefusal(asked.carrier, asked.failure);
  }
  return recordForms(ctx, manifest, summary, rows, asked);
}

/**
 * Records what the carriers made: the forms, and the file at form_url, which becomes the carrier's forms where they
 * take the summary's place. The answer to the request's Idempotency-Key is stored with it.
 */
async function recordForms(ctx: Context, manifest: ManifestsTable, summary: Buffer, rows: ShipmentsTable[], asked: { required: boolean; forms: CarrierForm[] }): Promise<Manifest> {
  const byTracking = new Map<string, string>();
  for (const row of rows) for (const tn of closingLabel(row).trackingNumbers) byTracking.set(tn, row.id);
  const stored: StoredCarrierForm[] = asked.forms.map((f) => ({
    kind: f.kind,
    number: f.number,
    shipment_ids: [...new Set(f.trackingNumbers.flatMap((tn) => (byTracking.has(tn) ? [byTracking.get(tn)!] : [])))],
    tracking_count: f.trackingNumbers.length,
  }));
  const pdfs = asked.forms.flatMap((f) => f.pdfs);
  if (pdfs.length > 0) {
    const { mergeLabels } = await import('../../labels/merge.ts');
    const files = carrierFormsReplaceSummary[manifest.carrier as CarrierId] ? pdfs : [summary, ...pdfs];
    await ctx.labels.put(ctx.db, manifest.id, 'pdf', await mergeLabels('pdf', files, { width: 612, height: 792 }), manifest.created_at);
  }
  const done: ManifestsTable = { ...manifest, carrier_manifest: asked.required ? 'submitted' : 'not_required', carrier_forms: JSON.stringify(stored), locked_until: null };
  const result = toManifest(ctx, done, rows.map((r) => r.id));
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .updateTable('manifests')
      .set({ carrier_manifest: done.carrier_manifest, carrier_forms: done.carrier_forms, locked_until: null })
      .where('id', '=', manifest.id)
      .where('carrier_manifest', '=', 'pending')
      .execute();
    await ctx.answer?.(trx, result);
  });
  return result;
}

/**
 * Finishes a manifest left pending (shipd stopped while asking its carrier), once its request's hold has run out:
 * `held` while another request or worker holds it.
 *
 * The carriers are asked again for the same labels; neither offers a way to look up what a lost answer held. Asking
 * again cannot put a label on a second form: USPS adds no label already on a SCAN form (scan-forms.yaml 3.1.14, the
 * SCANFormRequest shipment's label eligibility rules), and FedEx's Ground close closes what is still open for the
 * day. So an answer finishes the manifest as the first would have; a refusal means the carrier may well have made its
 * form before shipd stopped, without shipd holding it: the manifest is marked `failed`, saying so, and its labels stay
 * on it, as they may have been handed over. A carrier that does not answer leaves it pending, for the next try.
 */
export async function finishManifest(ctx: Context, row: ManifestsTable): Promise<Manifest | 'held'> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const claimed = await ctx.db
    .updateTable('manifests')
    .set({ locked_until: new Date(now.getTime() + manifestLeaseMs(ctx)).toISOString() })
    .where('id', '=', row.id)
    .where('carrier_manifest', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const current = await ctx.db.selectFrom('manifests').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (!current || current.carrier_manifest === 'pending') return 'held';
    return toManifest(ctx, current, (await shipmentIds(ctx.db, [row.id])).get(row.id)!);
  }
  const rows = await ctx.db.selectFrom('shipments').selectAll().where('manifest_id', '=', row.id).orderBy('id').execute();
  const clients = await closingClients(ctx, rows);
  const asked = await askCarriers(ctx, row.ship_date, clients);
  if (asked.ok) {
    // The summary again, as first drawn: the file kept may already hold the carrier's forms.
    const { pdf } = await drawManifest(ctx, { carrier: row.carrier as CarrierId, ship_date: row.ship_date }, row.id, new Date(row.created_at), rows, 'pending');
    return recordForms(ctx, row, pdf, rows, asked);
  }
  const { carrier, failure } = asked;
  if (failure.code !== 'manifest_rejected') {
    // Not an answer: the carrier is asked again when the hold runs out.
    await ctx.db.updateTable('manifests').set({ locked_until: at }).where('id', '=', row.id).where('carrier_manifest', '=', 'pending').execute();
    throw failure.code === 'carrier_timeout'
      ? new ApiError('carrier_timeout', `${failure.detail}; the manifest ${row.id} is still being made, retry later`)
      : new ApiError('carrier_error', `${carrier.name}: ${failure.detail}; the manifest ${row.id} is still being made, retry later`);
  }
  const detail =
    `shipd stopped after asking ${carrier.name} for this manifest's ${row.carrier === 'usps' ? 'SCAN forms' : 'close'} and before recording its answer; asked again, ${carrier.name} refused: ${failure.detail}. ` +
    `${carrier.name} has most likely made ${row.carrier === 'usps' ? 'SCAN forms of these labels, which its API gives no way to fetch again: print them from the USPS account that bought the labels (or hand the labels over at the counter)' : 'its close of the day: reprint its reports from the FedEx account'}. ` +
    'The labels stay on this manifest, as they may have been handed over; form_url serves shipd\'s summary.';
  const failed: ManifestsTable = { ...row, carrier_manifest: 'failed', carrier_error: detail, locked_until: null };
  const result = toManifest(ctx, failed, rows.map((r) => r.id));
  await inTransaction(ctx.db, async (trx) => {
    await trx.updateTable('manifests').set({ carrier_manifest: 'failed', carrier_error: detail, locked_until: null }).where('id', '=', row.id).where('carrier_manifest', '=', 'pending').execute();
    await ctx.answer?.(trx, result);
  });
  return result;
}

/** The reconcile job: every manifest left pending past its hold, finished or marked failed. */
export async function reconcileManifests(ctx: Omit<Context, 'principal'>, log: { info(o: object, m: string): void; error(o: object, m: string): void }): Promise<number> {
  const rows = await ctx.db
    .selectFrom('manifests')
    .selectAll()
    // The state as a literal: only then can the planner see that the query keeps to the partial index of pending rows.
    .where('carrier_manifest', '=', sql.lit('pending'))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', ctx.clock.now().toISOString())]))
    .orderBy('locked_until')
    .limit(20)
    .execute();
  for (const row of rows) {
    const owner = { ...ctx, ...ownerOf(row) } as Context;
    try {
      const outcome = await finishManifest(owner, row);
      if (outcome !== 'held') log.info({ manifest: row.id, carrier_manifest: outcome.carrier_manifest }, 'finished a manifest left pending');
    } catch (err) {
      log.error({ manifest: row.id, err }, 'could not finish a manifest left pending');
    }
  }
  return rows.length;
}

async function drawManifest(ctx: Context, input: ManifestCreate, id: string, now: Date, rows: ShipmentsTable[], state: CarrierManifestState): Promise<{ manifest: ManifestsTable; pdf: Buffer }> {
  const lines = rows.map((row) => {
    const record: PurchaseRecord = JSON.parse(row.purchase);
    const postageCents = row.postage_cents ?? row.quoted_cents;
    return { row, record, postageCents };
  });
  const totalWeightOz = Math.round(lines.reduce((sum, l) => sum + l.record.parcel.weightLb * 16, 0));
  const totalPostageCents = lines.reduce((sum, l) => sum + l.postageCents, 0);
  const manifest: ManifestsTable = {
    id,
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode: ctx.principal.mode,
    carrier: input.carrier,
    ship_date: input.ship_date,
    shipment_count: rows.length,
    total_weight_oz: totalWeightOz,
    total_postage_cents: totalPostageCents,
    created_at: now.toISOString(),
    carrier_manifest: state,
    carrier_forms: '[]',
    idempotency_key: null,
    locked_until: null,
    carrier_error: null,
  };
  const origins = [...new Set(lines.map(({ record: { from } }) => `${from.name ? `${from.name}, ` : ''}${from.street1}, ${from.city}, ${from.state} ${from.zip}`))];
  // Loaded when first needed, as batch files are (see batch-document.ts).
  const { writeManifestForm } = await import('../../labels/manifest-form.ts');
  const pdf = await writeManifestForm({
    id,
    title: formTitles[input.carrier],
    carrierName: carrierName(input.carrier),
    shipDate: input.ship_date,
    createdAt: now,
    origin: origins.length === 1 ? [`Ship from: ${origins[0]}`] : [`Ship from: ${origins.length} locations`],
    lines: lines.map(({ row, record, postageCents }) => ({
      trackingNumber: row.tracking_number!,
      service: serviceName(row.carrier, row.service),
      weightLb: record.parcel.weightLb,
      // Abroad, the postal code (where the country has one) and the country.
      destinationZip: isUsAddress(record.to) ? record.to.zip : `${record.to.zip ?? ''} ${countryOf(record.to)}`.trim(),
      postage: money(postageCents).amount,
    })),
    totalWeightLb: totalWeightOz / 16,
    totalPostage: money(totalPostageCents).amount,
    sample: ctx.principal.mode === 'test',
  });
  return { manifest, pdf };
}

export async function getManifest(ctx: Context, id: string): Promise<Manifest> {
  const row = await ctx.db.selectFrom('manifests').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No manifest ${id}`);
  return toManifest(ctx, row, (await shipmentIds(ctx.db, [id])).get(id)!);
}

export async function listManifests(ctx: Context, query: ListInput & { carrier?: CarrierId; ship_date?: string }): Promise<Page<Manifest>> {
  let q = ctx.db.selectFrom('manifests').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.ship_date) q = q.where('ship_date', '=', query.ship_date);
  const page = await fetchPage(q, query, 'man', (row) => row);
  const ids = await shipmentIds(ctx.db, page.data.map((row) => row.id));
  return { ...page, data: page.data.map((row) => toManifest(ctx, row, ids.get(row.id)!)) };
}
