import { shares } from '../../kernel/shares.ts';
import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, ShipmentsTable } from '../../db/schema.ts';
import { carrierCatalog } from '../../carriers/catalog.ts';
import type { ParcelSpec } from '../../carriers/carrier.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import type { Customs } from '../../schemas/customs.ts';
import type { CustomsDocumentType } from '../../labels/customs-data.ts';
import type { LabelResolution, LabelSize } from '../../labels/label-data.ts';
import type { Shipment } from '../../schemas/shipment.ts';
import type { Tracker } from '../../schemas/tracker.ts';
import type { Surcharge } from '../../schemas/surcharge.ts';
import type { ShipmentOptions } from '../../schemas/options.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { signLabelToken } from '../label-files/label-tokens.ts';
import { money } from '../core/money.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { apiBase } from '../../kernel/paths.ts';
import { insuranceOf } from '../rating/insurance.ts';

/** What was bought, kept with the purchase: enough to buy it again after a crash, and to render its label. */
export interface PurchaseRecord {
  from: Address;
  /** Any country in test mode. */
  to: AnyAddress;
  /** The first (or only) box. */
  parcel: ParcelSpec;
  /** Every box, the first included, where there are several; absent for one box. */
  parcels?: ParcelSpec[];
  /**
   * RFC 3339: the instant the carrier is given for the ship date (ShipDay.at): when the purchase started, for a label
   * shipping that day; its UTC date is the label's ship date.
   */
  shipDate: string;
  zone: string | null;
  /** YYYY-MM-DD, as quoted. */
  estimatedDeliveryDate: string | null;
  /** The surcharges of the rate bought, as quoted; absent on purchases recorded before rates showed them. */
  surcharges?: Surcharge[];
  /** The order number: what the label's reference was before clients gave their own, and the invoice number's stand-in. */
  reference: string | null;
  /** The references the client asked for; absent where the order number stands in (and on purchases before them). */
  references?: string[];
  /** The delivery options it was bought with; absent for none. */
  options?: ShipmentOptions;
  /** Absent on purchases before sizes: 4×6, at 203 dpi. */
  labelSize?: LabelSize;
  labelResolution?: LabelResolution;
  /** The checked customs declaration; absent on purchases recorded before declarations existed. */
  customs?: Customs | null;
  /** What the order's line items were worth (RateRequest.goodsValue); absent when they state none. */
  goodsValue?: { amount: string; currency: string };
  /** The label's customs documents, each kept beside it: drawn by shipd (customsFormsFor) or printed by the live carrier. */
  documents?: CustomsDocumentType[];
  /**
   * Where each box has a customs form of its own (test mode's USPS boxes abroad, as USPS prints one on each box's
   * label): each box's form, in the order of the boxes; `documents` then lists none of them.
   */
  boxDocuments?: CustomsDocumentType[];
}

/** Every customs document file of a label: the shipment's own, then each box's (`box`, 0-based). */
export const documentFiles = (record: Pick<PurchaseRecord, 'documents' | 'boxDocuments'>): { type: CustomsDocumentType; box?: number }[] => [
  ...(record.documents ?? []).map((type) => ({ type })),
  ...(record.boxDocuments ?? []).map((type, box) => ({ type, box })),
];


/** The name a customs document file has after its shipment's id: `{type}`, or for a box's own form `box{n}.{type}`. */
export const documentFile = (type: CustomsDocumentType, box?: number): string => (box === undefined ? type : `${boxFile(box)}.${type}`);

/** Every box of a purchase, the first first. */
export const recordBoxes = (record: Pick<PurchaseRecord, 'parcel' | 'parcels'>): ParcelSpec[] => record.parcels ?? [record.parcel];

/** A bought box as a shipment row keeps it (ShipmentsTable.packages). */
export interface StoredBox {
  tracking_number: string;
  /** Where each box is voided on its own (USPS), its id at the carrier. */
  carrier_shipment_id?: string;
  /** The box's tracking status last reported. */
  tracking_status?: string;
  /** How many of the box's scans were reported (with tracking.updated). */
  tracking_events?: number;
  /** What the carrier billed for the box alone, in cents, where it sold the boxes one by one (BoughtBox.postageCents). */
  postage_cents?: number;
  /** Set once the box was voided on its own (voidBox), the rest of the label shipping on; a whole void leaves it unset. */
  status?: 'voided' | 'void_pending';
  voided_at?: string;
}

/** Every box of a bought label: the stored ones, or the label itself for one box. */
export function storedBoxes(row: Pick<ShipmentsTable, 'packages' | 'tracking_number' | 'carrier_shipment_id' | 'tracking_status'>): StoredBox[] {
  if (row.packages !== null) return JSON.parse(row.packages);
  return [{ tracking_number: row.tracking_number!, ...(row.carrier_shipment_id && { carrier_shipment_id: row.carrier_shipment_id }), ...(row.tracking_status && { tracking_status: row.tracking_status }) }];
}

/** Whether the box is still to be shipped: bought, and neither voided on its own nor with its label. */
export const activeBox = (row: Pick<ShipmentsTable, 'status'>, box: StoredBox): boolean => row.status === 'purchased' && box.status === undefined;

/**
 * What each box weighs in a split of the label's money among its boxes (kernel/shares.ts): where the carrier sold the
 * boxes one by one (USPS), each box's own price; else (the carrier billed them as one shipment) all alike.
 */
export function boxWeights(boxes: readonly StoredBox[]): number[] {
  const own = boxes.map((b) => b.postage_cents);
  return own.every((c) => c !== undefined && c > 0) ? (own as number[]) : boxes.map(() => 1);
}

/** Each box's share of the label's postage, in cents, the shares adding up to it. */
export const boxShares = (row: Pick<ShipmentsTable, 'postage_cents' | 'quoted_cents'>, boxes: readonly StoredBox[]): number[] =>
  shares(row.postage_cents ?? row.quoted_cents, boxWeights(boxes));

/** The file name a box's own label is served under, beside the shipment's (1-based). */
export const boxFile = (index: number) => `box${index + 1}`;

/** The label's size, resolution and references as bought, with the defaults of purchases recorded before them. */
export function labelAskOf(record: PurchaseRecord, format: string): { size: LabelSize; resolution: LabelResolution | null; references: string[] } {
  return {
    size: record.labelSize ?? '4x6',
    resolution: format === 'zpl' ? (record.labelResolution ?? 203) : null,
    references: record.references ?? (record.reference !== null ? [record.reference] : []),
  };
}

/** Events belong to the key that made the shipment, whoever (a request, a job) reports on it. */
export const ownerOf = (row: Pick<ShipmentsTable, 'owner_key_id' | 'account_id' | 'mode'>) => ({ principal: { keyId: row.owner_key_id, accountId: row.account_id, mode: row.mode } });

/** The statuses clients see; `pending` and `failed` purchases are the purchase machinery's own. */
export const visibleStatuses = ['purchased', 'voided', 'void_pending'] as const;

const serviceNames = new Map<string, string>(carrierCatalog.flatMap((c) => c.services.map((s) => [`${c.id}:${s.code}`, s.name] as const)));

export function serviceName(carrier: string, service: string): string {
  return serviceNames.get(`${carrier}:${service}`) ?? service;
}

export function labelUrl(ctx: Pick<Context, 'config' | 'clock'>, shipmentId: string, format: string): string {
  const token = signLabelToken(ctx.config.secret, shipmentId, ctx.clock.now());
  return `${ctx.config.publicUrl}${apiBase}/labels/${shipmentId}.${format}?token=${token}`;
}

/**
 * A return label's progress, from its tracking: unused until the carrier's first scan (a label voided unsent included),
 * delivered once back, in transit between, whatever else the tracking says. Null for outbound labels.
 */
export function returnStatusOf(row: Pick<ShipmentsTable, 'is_return' | 'tracking_status'>): Shipment['return_status'] {
  if (row.is_return === 0) return null;
  if (row.tracking_status === null || unsent.has(row.tracking_status)) return 'unused';
  return row.tracking_status === 'delivered' ? 'delivered' : 'in_transit';
}

const unsent = new Set(['pre_transit', 'unknown', 'cancelled']);

export function toShipment(ctx: Pick<Context, 'config' | 'clock'>, row: ShipmentsTable): Shipment {
  const record = JSON.parse(row.purchase) as PurchaseRecord;
  const ask = labelAskOf(record, row.label_format);
  return {
    id: row.id,
    object: 'shipment',
    order_id: row.order_id,
    status: row.status as Shipment['status'],
    carrier: row.carrier as CarrierId,
    service: row.service,
    service_name: serviceName(row.carrier, row.service),
    tracking_number: row.tracking_number!,
    label_url: labelUrl(ctx, row.id, row.label_format),
    label_format: row.label_format,
    label_size: ask.size,
    label_resolution: ask.resolution,
    references: ask.references,
    documents: documentFiles(record).map(({ type, box }) => ({
      type,
      format: 'pdf',
      url: labelUrl(ctx, row.id, `${documentFile(type, box)}.pdf`),
      ...(box !== undefined && { package: box }),
    })),
    packages: packagesOf(ctx, row, record),
    master_tracking_number: row.master_tracking_number,
    postage: money(row.postage_cents ?? row.quoted_cents),
    surcharges: record.surcharges ?? [],
    payment: row.payment,
    rate_id: row.rate_id,
    ship_date: row.ship_date,
    options: record.options ?? {},
    insurance: insuranceOf(row.insured_cents),
    is_return: row.is_return === 1,
    charge: row.is_return === 1 ? (row.return_charge ?? 'on_create') : null,
    return_status: returnStatusOf(row),
    charge_status: row.charge_status,
    metadata: JSON.parse(row.metadata),
    mode: row.mode,
    created_at: row.created_at,
    voided_at: row.voided_at,
  };
}

const pounds = (n: number) => Math.round(n * 1000) / 1000;

function packagesOf(ctx: Pick<Context, 'config' | 'clock'>, row: ShipmentsTable, record: PurchaseRecord): Shipment['packages'] {
  const specs = recordBoxes(record);
  // A pending purchase has no tracking numbers yet; its boxes are listed once bought.
  if (row.tracking_number === null) return [];
  return storedBoxes(row).map((box, i) => {
    const spec = specs[i]!;
    const d = spec.dimensionsIn;
    const active = activeBox(row, box);
    return {
      tracking_number: box.tracking_number,
      label_url: labelUrl(ctx, row.id, `${boxFile(i)}.${row.label_format}`),
      weight: { value: pounds(spec.weightLb), unit: 'lb' },
      ...(d && { dimensions: { length: pounds(d.length), width: pounds(d.width), height: pounds(d.height), unit: 'in' } }),
      ...(spec.reference && { reference: spec.reference }),
      ...(spec.insuredCents !== undefined && { insurance: insuranceOf(spec.insuredCents)! }),
      // A box voided on its own keeps its void; the others share the label's.
      status: box.status ?? (row.status as Shipment['status']),
      voided_at: box.voided_at ?? row.voided_at,
      // Every box starts where the label does; the tracking worker records each box's own once it has asked.
      tracking_status: (active ? (box.tracking_status ?? row.tracking_status ?? 'unknown') : 'cancelled') as Tracker['status'],
    };
  });
}

/** The order's current label, outbound or return: the newest one a client can see. */
export async function currentShipmentRow(db: Kysely<DB>, ctx: Context, orderId: string, isReturn: boolean): Promise<ShipmentsTable | undefined> {
  return db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('is_return', '=', isReturn ? 1 : 0)
    .where('status', 'in', visibleStatuses)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A shp_ id, or an ord_ id meaning that order's current outbound label; 404 for anyone else's. */
/** The caller's own label with this shp_ id, unless it is one a client never sees. */
export function visibleShipmentRow(ctx: Context, id: string): Promise<ShipmentsTable | undefined> {
  return ctx.db
    .selectFrom('shipments')
    .selectAll()
    .where('id', '=', id)
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('status', 'in', visibleStatuses)
    .executeTakeFirst();
}

export async function getShipment(ctx: Context, id: string): Promise<Shipment> {
  let row: ShipmentsTable | undefined;
  if (hasPrefix(id, 'shp')) {
    row = await visibleShipmentRow(ctx, id);
  } else if (hasPrefix(id, 'ord')) {
    row = await currentShipmentRow(ctx.db, ctx, id, false);
  }
  if (!row) throw new ApiError('not_found', hasPrefix(id, 'ord') ? `Order ${id} has no label, or is not yours` : `No shipment ${id}`);
  return toShipment(ctx, row);
}

export async function listShipments(
  ctx: Context,
  query: ListInput & { order_id?: string; status?: Shipment['status']; tracking_number?: string },
): Promise<Page<Shipment>> {
  let q = ctx.db.selectFrom('shipments').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  q = query.status ? q.where('status', '=', query.status) : q.where('status', 'in', visibleStatuses);
  if (query.order_id) q = q.where('order_id', '=', query.order_id);
  if (query.tracking_number) q = q.where('tracking_number', '=', query.tracking_number);
  return fetchPage(q, query, 'shp', (row) => toShipment(ctx, row));
}
