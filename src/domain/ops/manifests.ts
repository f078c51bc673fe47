import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { CarrierManifestState, DB, ManifestsTable, ShipmentsTable, StoredCarrierForm } from '../../db/schema.ts';
import type { Carrier, CarrierFailure, CarrierForm, ClosingLabel } from '../../carriers/carrier.ts';
import { carrierForShipment } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import { carrierCatalog } from '../../carriers/catalog.ts';
import type { Manifest, ManifestCreate } from '../../schemas/manifest.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { money } from '../core/money.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { countryOf, isUsAddress } from '../addresses/address-rules.ts';
import { labelUrl, serviceName, type PurchaseRecord } from '../shipments/shipments.ts';
import { inTransaction } from '../core/transaction.ts';

/** What each carrier calls the form a driver scans to accept the day's parcels. */
const formTitles: Record<CarrierId, string> = {
  usps: 'USPS SCAN Form',
  ups: 'UPS End of Day Summary',
  fedex: 'FedEx Ground Close Manifest',
};

const carrierName = (id: CarrierId) => carrierCatalog.find((c) => c.id === id)!.name;

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
 * POST /manifests: the end-of-day form for a carrier and day. The labels on it are handed over and can no longer be
 * voided, as a real carrier refuses to void what it has accepted.
 *
 * The form is drawn before the transaction, not inside it: a form of a thousand labels takes a while to draw, and
 * on SQLite a transaction holds the only connection. The transaction then claims exactly the labels drawn, and if
 * any of them changed meanwhile, the form is drawn again from what is there now.
 *
 * With a live key the carrier is told after the claim (closeDay): a label being handed over cannot be voided while
 * the carrier makes its form. A carrier that refuses gives the labels back, and the manifest is not made.
 */
export async function createManifest(ctx: Context, input: ManifestCreate): Promise<Manifest> {
  const now = ctx.clock.now();
  const id = newId('man', now.getTime());
  const live = ctx.principal.mode === 'live';
  for (let tries = 1; ; tries++) {
    const rows = await labelsToManifest(ctx.db, ctx, input);
    const clients = live ? await closingClients(ctx, rows) : [];
    const state: CarrierManifestState = !live ? 'simulated' : clients.some((c) => c.carrier.closeDay) ? 'pending' : 'not_required';
    const { manifest, pdf } = await drawManifest(ctx, input, id, now, rows, state);
    await ctx.labels.put(ctx.db, id, 'pdf', pdf, manifest.created_at);
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
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'labels_changed') || tries === manifestTries) throw err;
      continue;
    }
    if (state !== 'pending') return toManifest(ctx, manifest, rows.map((r) => r.id));
    return tellCarrier(ctx, input, manifest, pdf, rows, clients);
  }
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

/**
 * Asks each carrier client for its forms of the day, then records them; a refusal releases every label and removes
 * the manifest. The file at form_url becomes the carrier's forms where they take the summary's place.
 */
async function tellCarrier(ctx: Context, input: ManifestCreate, manifest: ManifestsTable, summary: Buffer, rows: ShipmentsTable[], clients: { carrier: Carrier; rows: ShipmentsTable[] }[]): Promise<Manifest> {
  const forms: CarrierForm[] = [];
  let required = false;
  for (const { carrier, rows: group } of clients) {
    const close = carrier.closeDay?.bind(carrier);
    if (!close) continue;
    const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => close({ shipDate: input.ship_date, labels: group.map(closingLabel) }, signal));
    if (!outcome.ok) {
      await inTransaction(ctx.db, async (trx) => {
        await trx.updateTable('shipments').set({ manifest_id: null }).where('manifest_id', '=', manifest.id).execute();
        await trx.deleteFrom('manifests').where('id', '=', manifest.id).execute();
      });
      throw carrierRefusal(carrier, outcome.error);
    }
    if (outcome.value.required) {
      required = true;
      forms.push(...outcome.value.forms);
    }
  }
  const byTracking = new Map<string, string>();
  for (const row of rows) for (const tn of closingLabel(row).trackingNumbers) byTracking.set(tn, row.id);
  const stored: StoredCarrierForm[] = forms.map((f) => ({
    kind: f.kind,
    number: f.number,
    shipment_ids: [...new Set(f.trackingNumbers.flatMap((tn) => (byTracking.has(tn) ? [byTracking.get(tn)!] : [])))],
    tracking_count: f.trackingNumbers.length,
  }));
  const pdfs = forms.flatMap((f) => f.pdfs);
  if (pdfs.length > 0) {
    const { mergeLabels } = await import('../../labels/merge.ts');
    const files = carrierFormsReplaceSummary[input.carrier] ? pdfs : [summary, ...pdfs];
    await ctx.labels.put(ctx.db, manifest.id, 'pdf', await mergeLabels('pdf', files, { width: 612, height: 792 }), manifest.created_at);
  }
  const done: ManifestsTable = { ...manifest, carrier_manifest: required ? 'submitted' : 'not_required', carrier_forms: JSON.stringify(stored) };
  await ctx.db.updateTable('manifests').set({ carrier_manifest: done.carrier_manifest, carrier_forms: done.carrier_forms }).where('id', '=', manifest.id).execute();
  return toManifest(ctx, done, rows.map((r) => r.id));
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
