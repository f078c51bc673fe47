import { Type } from '@sinclair/typebox';
import { cancelPickup, getPickup, listPickups, schedulePickup } from '../domain/ops/pickups.ts';
import { pickupAvailability } from '../domain/ops/pickup-availability.ts';
import { Pickup, PickupAvailability, PickupAvailabilityQuery, PickupCreate, PickupIdParams, PickupList, PickupListQuery } from '../schemas/pickup.ts';
import { defineOperation } from './operation.ts';

const tag = 'Pickups';
const feature = 'pickups';

export const pickupOperations = [
  defineOperation({
    id: 'pickupAvailability',
    method: 'POST',
    path: '/pickups/availability',
    tag,
    feature,
    summary: 'Ask when a carrier can pick up',
    description:
      'Whether the carrier\'s driver can come to one of your locations (`ship_from_id`) or an `address` on `date` (today to 30 days ahead), ' +
      'and the earliest and latest times and the booking cut-off (`book_by`), local at the address, where the carrier says. Live keys ask ' +
      'the carrier (FedEx\'s Pickup Availability); test keys get the simulated carriers\' answer, by the rules POST /pickups holds test ' +
      'pickups to (business days, 08:00 to 20:00). A carrier without such a call answers 422 `not_supported_by_carrier`. Books nothing.',
    body: PickupAvailabilityQuery,
    response: Type.Ref(PickupAvailability),
    responseDescription: 'Whether and when a driver can come',
    errors: ['not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    readOnly: true,
    handler: (ctx, { body }) => pickupAvailability(ctx, body),
  }),
  defineOperation({
    id: 'schedulePickup',
    method: 'POST',
    path: '/pickups',
    tag,
    feature,
    summary: 'Schedule a carrier pickup',
    description:
      'Books a one-time pickup at one of your locations (`ship_from_id`) or at an `address`, on a business day (no weekends, no US federal ' +
      'holidays) from today to 30 days ahead, within a window of at least 2 hours between 08:00 and 20:00 local time at the address. ' +
      '`shipment_ids` must be your purchased labels of that carrier. Test keys book the simulated carriers. Live keys book FedEx ' +
      'through its Pickup API (a Ground driver for FedEx Ground and Home Delivery labels, an Express one otherwise; the two kinds ' +
      'are booked as separate pickups); carriers shipd does not reach yet answer 422 `not_supported_by_carrier`.',
    body: PickupCreate,
    response: Type.Ref(Pickup),
    responseDescription: 'The scheduled pickup, with the carrier\'s confirmation number',
    successStatus: 201,
    errors: ['not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    idempotent: true,
    handler: (ctx, { body }) => schedulePickup(ctx, body),
  }),
  defineOperation({
    id: 'listPickups',
    method: 'GET',
    path: '/pickups',
    tag,
    feature,
    summary: 'List pickups',
    description: "The calling key's pickups, newest first, a page at a time; filter by `status`, `carrier` or `date`. Changes nothing.",
    query: PickupListQuery,
    response: Type.Ref(PickupList),
    responseDescription: 'A page of pickups',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listPickups(ctx, query),
  }),
  defineOperation({
    id: 'getPickup',
    method: 'GET',
    path: '/pickups/:id',
    tag,
    feature,
    summary: 'Get a pickup',
    description: "One pickup, with the carrier's confirmation number and whether it is still scheduled. 404 for an id that is not this key's.",
    params: PickupIdParams,
    response: Type.Ref(Pickup),
    responseDescription: 'The pickup',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getPickup(ctx, params.id),
  }),
  defineOperation({
    id: 'cancelPickup',
    method: 'POST',
    path: '/pickups/:id/cancel',
    tag,
    feature,
    summary: 'Cancel a pickup',
    description:
      'Cancels it with the carrier, until its window begins (local time at the address): after that a driver may be on the way and it ' +
      'answers 409 `pickup_not_cancellable`; one cancelled before answers 409 `pickup_already_cancelled`. The labels stay valid. ' +
      'FedEx is told with the confirmation number, the day and the Express location its booking answered.',
    params: PickupIdParams,
    response: Type.Ref(Pickup),
    responseDescription: 'The cancelled pickup',
    errors: ['not_found', 'pickup_already_cancelled', 'pickup_not_cancellable', 'not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    handler: (ctx, { params }) => cancelPickup(ctx, params.id),
  }),
];
