import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import { BatchInserter } from '../../db/batch-insert.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { deleteExpiredRows } from '../../db/expired-rows.ts';
import type { DB, RateShopsTable } from '../../db/schema.ts';
import { carrierCatalog } from '../../carriers/catalog.ts';
import type { Rate } from '../../schemas/rate.ts';
import { amountIn, money } from '../core/money.ts';
import type { Quote } from '../../carriers/carrier.ts';
import type { SurchargeType } from '../../schemas/surcharge.ts';
import { parseRateId, rateIdFor } from './rate-ids.ts';

/** One stored rate: what its Rate cannot derive from the shop (id, expiry) or the catalog (service name). */
type StoredRate = [
  carrier: CarrierId,
  service: string,
  amountCents: number,
  listCents: number,
  billableLb: number,
  zone: string,
  days: number | null,
  date: string | null,
  guaranteed: 0 | 1,
  // Only for a quote in another currency than USD, or one with surcharges after them, so shops stored before there
  // were any read the same.
  currency?: string,
  usdAmountCents?: number | null,
  // Only for a quote with surcharges; a shop stored before rates showed them has none.
  surcharges?: [type: SurchargeType, cents: number][],
];

const serviceNames = new Map(carrierCatalog.flatMap((c) => c.services.map((s) => [`${c.id}:${s.code}`, s.name] as const)));

/** A shop's quotes, in the order their rate ids number them. */
export function encodeRates(quotes: Quote[]): string {
  const stored = quotes.map((q): StoredRate => {
    const row: StoredRate = [q.carrier, q.service, q.amountCents, q.listAmountCents, q.billableWeightLb, q.zone, q.deliveryDays, q.estimatedDeliveryDate, q.guaranteed ? 1 : 0];
    if (q.currency !== 'USD' || q.surcharges.length > 0) row.push(q.currency, q.usdAmountCents ?? null);
    if (q.surcharges.length > 0) row.push(q.surcharges.map((s): [SurchargeType, number] => [s.type, s.amountCents]));
    return row;
  });
  return JSON.stringify(stored);
}

export function decodeRates(row: Pick<RateShopsTable, 'rate_key' | 'rates' | 'expires_at'>): Rate[] {
  return (JSON.parse(row.rates) as StoredRate[]).map(([carrier, service, amount, list, billable, zone, days, date, guaranteed, currency = 'USD', usd, surcharges = []], i) => ({
    id: rateIdFor(row.rate_key, i),
    object: 'rate',
    carrier,
    service,
    service_name: serviceNames.get(`${carrier}:${service}`) ?? service,
    amount: amountIn(amount, currency),
    list_amount: amountIn(list, currency),
    ...(usd != null && { amount_usd: money(usd) }),
    surcharges: surcharges.map(([type, cents]) => ({ type, amount: amountIn(cents, currency) })),
    billable_weight: { value: billable, unit: 'lb' },
    zone,
    delivery_days: days,
    estimated_delivery_date: date,
    guaranteed: guaranteed === 1,
    expires_at: row.expires_at,
  }));
}

/**
 * Where rate shops are kept for 24 hours: one compact row per shop, written in batches. A rate is found by id
 * through its shop's key.
 */
export class RateStore {
  private readonly inserter: BatchInserter<'rate_shops'>;

  constructor(
    private readonly db: Kysely<DB>,
    kind: DatabaseKind,
  ) {
    this.inserter = new BatchInserter(db, 'rate_shops', 200, kind === 'postgres' ? 24 : Number.POSITIVE_INFINITY);
  }

  save(row: RateShopsTable): Promise<void> {
    return this.inserter.insert(row);
  }

  /** The cleanup job: forget shops whose rates expired. */
  async deleteExpired(now: Date): Promise<number> {
    return deleteExpiredRows(this.db, 'rate_shops', now.toISOString());
  }

  /** The rate with this id, with its shop's row; undefined when no such rate was ever quoted. */
  async find(db: Kysely<DB>, rateId: string): Promise<{ rate: Rate; shop: RateShopsTable } | undefined> {
    const parsed = parseRateId(rateId);
    if (!parsed) return undefined;
    const shop = await db.selectFrom('rate_shops').selectAll().where('rate_key', '=', parsed.rateKey).executeTakeFirst();
    if (!shop) return undefined;
    const rate = decodeRates(shop)[parsed.index];
    return rate ? { rate, shop } : undefined;
  }
}
