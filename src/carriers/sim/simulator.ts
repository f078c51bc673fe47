import { failure, lengthAndGirthIn, ok, type Carrier, type CarrierResult, type Quote, type RateRequest } from '../carrier.ts';
import type { ServiceInfo } from '../catalog.ts';
import { billableWeightLb } from './billable-weight.ts';
import { deliveryDate } from './calendar.ts';
import { priceFor } from './pricing.ts';
import type { SimCarrierTable } from './tables.ts';
import { zoneFor } from './zones.ts';

/** Waits until the caller gives up: how a carrier that never answers looks from here. */
function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * An offline carrier for test mode: deterministic quotes for the same request and ship date. The magic
 * recipient names "Timeout <carrier>" and "Unavailable <carrier>" make that carrier fail, for testing the
 * unhappy paths (README: test mode).
 */
export class SimulatedCarrier implements Carrier {
  readonly id: Carrier['id'];
  readonly name: string;
  readonly services: readonly ServiceInfo[];
  readonly usable = true;

  constructor(private readonly table: SimCarrierTable) {
    this.id = table.id;
    this.name = table.name;
    this.services = table.services.map((s) => ({ code: s.code, name: s.name, domestic: true }));
  }

  async rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const t = this.table;
    const magic = (request.to.name ?? '').trim().toLowerCase();
    if (magic === `timeout ${t.id}`) return hang(signal);
    if (magic === `unavailable ${t.id}`) return failure('carrier_unavailable', `${t.name} is not answering (simulated by the recipient name)`);

    const zone = zoneFor(t.id, request.from.zip, request.to.zip);
    if (!zone) {
      return failure('not_serviced', `${t.name} does not serve ZIP ${[request.from.zip, request.to.zip].join(' → ')}: no such ZIP`);
    }
    const { parcel } = request;
    if (parcel.weightLb > t.maxWeightLb) return failure('parcel_too_large', `${t.name} takes parcels of at most ${t.maxWeightLb} lb`);
    const size = parcel.dimensionsIn ? lengthAndGirthIn(parcel.dimensionsIn) : undefined;
    if (size && size.longest > t.maxLengthIn) return failure('parcel_too_large', `${t.name} takes parcels at most ${t.maxLengthIn} in long`);
    if (size && size.lengthPlusGirth > t.maxLengthPlusGirthIn) {
      return failure('parcel_too_large', `${t.name} takes at most ${t.maxLengthPlusGirthIn} in of length plus girth; this parcel has ${Math.round(size.lengthPlusGirth)} in`);
    }

    const residential = request.to.residential ?? !request.to.company;
    const flat = request.carrierBox?.flatRate;
    const billable = billableWeightLb(flat ? { weightLb: parcel.weightLb } : parcel, t.dim);
    const quotes: Quote[] = [];
    for (const s of t.services) {
      if (request.services && !request.services.includes(s.code)) continue;
      if (flat && s.code !== flat.service) continue;
      if (s.destination && s.destination !== (residential ? 'residential' : 'commercial')) continue;
      if (size && s.maxLengthPlusGirthIn && size.lengthPlusGirth > s.maxLengthPlusGirthIn) continue;
      // A flat-rate box costs the same to every zone at every weight it holds.
      const price = flat ? { amountCents: flat.accountCents, listAmountCents: flat.listCents } : priceFor(t, s, billable, zone.index, residential);
      const days = s.days[zone.index - 1]!;
      quotes.push({
        carrier: t.id,
        service: s.code,
        serviceName: s.name,
        ...price,
        billableWeightLb: billable,
        zone: zone.label,
        deliveryDays: days,
        estimatedDeliveryDate: deliveryDate(request.shipDate, days),
        guaranteed: s.guaranteed,
      });
    }
    if (quotes.length === 0) return failure('service_unavailable', `No ${t.name} service fits this parcel and destination`);
    return ok(quotes);
  }
}
