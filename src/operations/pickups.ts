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
      'the carrier: USPS (its Carrier Pickup eligibility call, which gives whether it serves the address and no times; `book_by` is its ' +
      '2:00 AM Central cut-off where that falls on the day) and FedEx (its Pickup Availability, with times). UPS publishes no ' +
      'availability call, so a live key asking about UPS answers 422 `not_supported_by_carrier`; on a server without USPS or FedEx ' +
      'credentials (and no account of their own connected) a live key is answered 502 `carrier_error` naming the settings to set, as a ' +
      'booking is. Test keys get the simulated carriers\' ' +
      'answer, for all three, by the rules POST /pickups holds test pickups to (business days, 08:00 to 20:00). Books nothing.',
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
      '`shipment_ids` must be your purchased labels of that carrier; their boxes give the parcels\' count and total weight the carrier ' +
      'is told of, or give `parcel_count` and `total_weight` (required with a live key when no `shipment_ids` are given). Test keys book ' +
      'the simulated carriers. Live keys book the carrier itself (FedEx sends a Ground driver for FedEx Ground and Home Delivery labels, ' +
      'an Express one otherwise, so the two kinds are booked as separate pickups); where it charges for the pickup (UPS on-call pickups) the price is ' +
      'quoted first and charged to the account\'s payment method as postage is (402 without one, before the carrier is asked anything), ' +
      'and shown as `price`. A carrier refusing the day answers 422 `pickup_unavailable`, refusing the window or past its cut-off ' +
      '422 `outside_pickup_window`. Retrying with the same Idempotency-Key never books twice, even after a crash: the booking is looked ' +
      'for at the carrier by the pickup\'s id, sent as its reference, where the carrier can look one up (UPS, whose pending pickups ' +
      'list today\'s and tomorrow\'s; a later one is booked again and UPS answers the same PRN, charged once). USPS and FedEx cannot ' +
      'find a pickup by a client\'s reference, so a booking whose answer was lost (504 `carrier_timeout`) is never asked again: the retry ' +
      'answers 502 `carrier_error` saying where to look in the carrier\'s own account. UPS keeps one pickup per address and day (a ' +
      'second booking there gets the first one\'s PRN, the same driver), so a second UPS pickup of the account at the same address on ' +
      'the same day, while the first is scheduled or being booked, answers 409 `pickup_already_scheduled` before UPS is asked anything, ' +
      'whatever the window, with `errors` naming the first pickup\'s id: use it, or cancel it and schedule again. Should UPS answer the ' +
      'PRN of a pickup already booked through shipd (an address it takes for the same), the booking is refused the same way and not ' +
      'charged. Test keys keep the same rule for UPS; USPS and FedEx book each pickup on its own.',
    body: PickupCreate,
    response: Type.Ref(Pickup),
    responseDescription: 'The scheduled pickup, with the carrier\'s confirmation number',
    successStatus: 201,
    errors: [
      'not_supported_by_carrier',
      'pickup_unavailable',
      'outside_pickup_window',
      'pickup_already_scheduled',
      'payment_method_required',
      'payment_declined',
      'payment_authentication_required',
      'billing_unavailable',
      'idempotency_key_in_use',
      'idempotency_key_reused',
      'carrier_error',
      'carrier_timeout',
    ],
    idempotent: true,
    // The booking is recorded before the carrier is asked and completed after: each step commits on its own.
    ownTransactions: true,
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
      'answers 409 `pickup_not_cancellable`; one cancelled before answers 409 `pickup_already_cancelled`. The labels stay valid. A ' +
      'priced pickup\'s charge is refunded to the payment method it was charged to.',
    params: PickupIdParams,
    response: Type.Ref(Pickup),
    responseDescription: 'The cancelled pickup',
    errors: ['not_found', 'pickup_already_cancelled', 'pickup_not_cancellable', 'not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    handler: (ctx, { params }) => cancelPickup(ctx, params.id),
  }),
];
