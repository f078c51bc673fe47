import type { PickupAvailability, PickupAvailabilityQuery } from '../../schemas/pickup.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { minutesOf, timeOf } from '../core/local-time.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { failIfAny, field } from '../shipments/shipment-inputs.ts';
import { carrierRefusal, daysFrom, maxDaysAhead, pickupPlace } from './pickups.ts';

/**
 * POST /pickups/availability: asks the carrier whether its driver can come to the place on the day, and when. The
 * carrier's answer stands (the simulators answer by the rules test-mode pickups are held to), but for one thing the
 * carrier cannot know: on the day itself, once the booking cut-off has passed at the address, no pickup can be booked.
 */
export async function pickupAvailability(ctx: Context, input: PickupAvailabilityQuery): Promise<PickupAvailability> {
  const { mode } = ctx.principal;
  const carrier = (await carrierAccess(ctx, ctx.principal.accountId, mode)).carriers[input.carrier];
  const ask = carrier.pickupAvailability?.bind(carrier);
  if (!ask) throw new ApiError('not_supported_by_carrier', `${carrier.name} publishes no pickup availability call that shipd makes with ${mode} keys; ask ${carrier.name} directly`);

  const errors: FieldError[] = [];
  const place = await pickupPlace(ctx, input, errors);
  if (place) {
    const ahead = daysFrom(place.clock.date, input.date);
    if (ahead < 0) errors.push(field('/date', `is in the past: it is ${place.clock.date} at the pickup address`));
    else if (ahead > maxDaysAhead) errors.push(field('/date', `is more than ${maxDaysAhead} days ahead; ask ${maxDaysAhead} days out at most`));
  }
  failIfAny(errors);
  const where = place!;

  const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => ask({ address: where.address, date: input.date }, signal));
  if (!answer.ok) throw carrierRefusal(carrier, answer.error, 'its availability is not known');
  const { available, earliest, latest, bookBy, reason } = answer.value;
  const pastCutOff = available && bookBy !== null && input.date === where.clock.date && where.clock.minutes >= minutesOf(bookBy);
  return {
    object: 'pickup_availability',
    carrier: carrier.id,
    date: input.date,
    available: available && !pastCutOff,
    earliest,
    latest,
    book_by: bookBy,
    reason: pastCutOff ? `It is ${timeOf(where.clock.minutes)} at the pickup address, past ${carrier.name}'s ${bookBy} cut-off for booking a pickup that day` : reason,
  };
}
