import type { CarrierId } from '../config.ts';
import type { RatesTable } from '../db/schema.ts';
import { failure, type Carrier, type CarrierResult, type ParcelSpec, type Quote, type RateRequest } from '../carriers/carrier.ts';
import type { Address } from '../schemas/address.ts';
import type { Parcel } from '../schemas/order.ts';
import type { Rate, RateShop, RateShopRequest } from '../schemas/rate.ts';
import type { Context } from './context.ts';
import { ApiError, type FieldError } from './errors.ts';
import { fingerprint } from './idempotency.ts';
import { hasPrefix, newId } from './ids.ts';
import { cents, money } from './money.ts';
import { parcelErrors, toIn, weightInLb } from './parcels.ts';
import { failIfAny, field, normalizeAddress, resolvePackage, resolveShipFrom } from './shipment-inputs.ts';
import type { ResolvedPackage } from './packages.ts';

export const rateLifetimeMs = 24 * 3_600_000;

export function parcelSpec(parcel: Parcel, pkg?: ResolvedPackage): ParcelSpec {
  const d = pkg ? pkg.preset.dimensions : parcel.dimensions;
  const f = d ? toIn[d.unit] : 1;
  return {
    weightLb: weightInLb(parcel.weight),
    ...(d && { dimensionsIn: { length: d.length * f, width: d.width * f, height: d.height * f } }),
  };
}

/** What a rate was quoted for; a purchase with this rate must be for the same. */
export function quoteFingerprint(from: Address, to: Address, parcel: Parcel, packageId: string | null): string {
  return fingerprint({ from, to, parcel, package_id: packageId });
}

interface ShipmentInputs {
  orderId: string | null;
  from: Address;
  to: Address;
  parcel: Parcel;
  pkg?: ResolvedPackage;
}

async function resolveInputs(ctx: Context, input: RateShopRequest): Promise<ShipmentInputs> {
  const errors: FieldError[] = [];
  if (input.order_id) {
    for (const name of ['ship_from', 'ship_from_id', 'ship_to', 'parcel', 'package_id'] as const) {
      if (input[name] !== undefined) errors.push(field(`/${name}`, 'give order_id or the shipment itself, not both'));
    }
    failIfAny(errors);
    const row = hasPrefix(input.order_id, 'ord')
      ? await ctx.db.selectFrom('orders').selectAll().where('id', '=', input.order_id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst()
      : undefined;
    if (!row) throw new ApiError('not_found', `No order ${input.order_id}`);
    if (row.parcel === null) failIfAny([field('/order_id', 'the order has no parcel; add one with PATCH /orders/{id}')]);
    const parcel: Parcel = JSON.parse(row.parcel!);
    const pkg = row.package_id ? await resolvePackage(ctx.db, ctx, row.package_id, parcel, errors) : undefined;
    failIfAny(errors.map((e) => ({ ...e, pointer: '/order_id' })));
    return { orderId: row.id, from: JSON.parse(row.ship_from), to: JSON.parse(row.ship_to), parcel, pkg };
  }
  if (!input.ship_to) errors.push(field('/ship_to', 'is required without order_id'));
  if (!input.parcel) errors.push(field('/parcel', 'is required without order_id'));
  const to = input.ship_to ? normalizeAddress(input.ship_to, '/ship_to', errors) : undefined;
  if (input.parcel) errors.push(...parcelErrors(input.parcel, '/parcel'));
  const pkg = input.package_id ? await resolvePackage(ctx.db, ctx, input.package_id, input.parcel, errors) : undefined;
  const from = await resolveShipFrom(ctx.db, ctx, input, errors);
  failIfAny(errors);
  return { orderId: null, from: from.address!, to: to!, parcel: input.parcel!, pkg };
}

/** One carrier's answer within the time-out; whatever it does, the others are not held up or failed. */
async function ask(carrier: Carrier, request: RateRequest, timeoutMs: number): Promise<CarrierResult<Quote[]>> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CarrierResult<Quote[]>>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      resolve(failure('carrier_timeout', `${carrier.name} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([carrier.rate(request, controller.signal), deadline]);
  } catch (err) {
    if (timedOut) return failure('carrier_timeout', `${carrier.name} did not answer within ${timeoutMs} ms`);
    return failure('carrier_error', `${carrier.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/**
 * Shops the carriers in parallel and stores every quote, in one write, so any of them can be bought by id
 * for 24 hours. A carrier that fails or runs out of time becomes an entry in `errors`; it never fails the call.
 */
export async function shopRates(ctx: Context, carriers: Record<CarrierId, Carrier>, input: RateShopRequest): Promise<RateShop> {
  const inputs = await resolveInputs(ctx, input);
  const box = inputs.pkg?.box;
  if (box && input.carriers && !input.carriers.includes(box.carrier)) {
    failIfAny([field('/carriers', `${inputs.pkg!.preset.name} ships only with ${box.carrier}`)]);
  }
  // A carrier's own box ships only with that carrier.
  const chosen = (box ? [box.carrier] : (input.carriers ?? (Object.keys(carriers) as CarrierId[]))).map((id) => carriers[id]);
  if (input.services) {
    const known = new Set(chosen.flatMap((c) => c.services.map((s) => s.code)));
    failIfAny(input.services.flatMap((s, i) => (known.has(s) ? [] : [field(`/services/${i}`, `"${s}" is not a service of ${chosen.map((c) => c.name).join(', ')}`)])));
  }
  const now = ctx.clock.now();
  const request: RateRequest = {
    from: inputs.from,
    to: inputs.to,
    parcel: parcelSpec(inputs.parcel, inputs.pkg),
    shipDate: now,
    services: input.services,
    ...(box && { carrierBox: { id: box.id, ...(box.flatRate && { flatRate: box.flatRate }) } }),
  };
  const answers = await Promise.all(chosen.map((c) => ask(c, request, ctx.config.carrierTimeoutMs)));

  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + rateLifetimeMs).toISOString();
  const print = quoteFingerprint(inputs.from, inputs.to, inputs.parcel, inputs.pkg?.preset.id ?? null);
  const rates: Rate[] = [];
  const errors: RateShop['errors'] = [];
  answers.forEach((answer, i) => {
    const carrier = chosen[i]!;
    if (!answer.ok) {
      errors.push({ carrier: carrier.id, code: answer.error.code, detail: answer.error.detail });
      return;
    }
    for (const q of answer.value) {
      rates.push({
        id: newId('rate', now.getTime()),
        object: 'rate',
        carrier: q.carrier,
        service: q.service,
        service_name: q.serviceName,
        amount: money(q.amountCents),
        list_amount: money(q.listAmountCents),
        billable_weight: { value: q.billableWeightLb, unit: 'lb' },
        zone: q.zone,
        delivery_days: q.deliveryDays,
        estimated_delivery_date: q.estimatedDeliveryDate,
        guaranteed: q.guaranteed,
        expires_at: expiresAt,
      });
    }
  });
  rates.sort((a, b) => Number(a.amount.amount) - Number(b.amount.amount) || a.delivery_days - b.delivery_days);

  if (rates.length > 0) {
    const rows: RatesTable[] = rates.map((r) => ({
      id: r.id,
      owner_key_id: ctx.principal.keyId,
      mode: ctx.principal.mode,
      order_id: inputs.orderId,
      carrier: r.carrier,
      service: r.service,
      amount_cents: cents(r.amount),
      inputs_fingerprint: print,
      data: JSON.stringify(r),
      created_at: createdAt,
      expires_at: expiresAt,
    }));
    await ctx.db.insertInto('rates').values(rows).execute();
  }
  return { id: newId('rsh', now.getTime()), object: 'rate_shop', order_id: inputs.orderId, rates, errors, created_at: createdAt };
}
