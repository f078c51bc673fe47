import { Type } from '@sinclair/typebox';

// USPS Subscriptions - Tracking v3r2 (3.2.2), our schemas of the subscription shipd creates and of the notification
// USPS posts, from subscriptions-tracking-v3r2_1.yaml in Thecodergabe/shipstack specs/usps at commit
// 5b975df4144e304644c217bf413138879b77dd7b: POST /subscriptions-tracking/v3r2/subscriptions with TrackingSubscription
// (Subscription: listenerURL, secret and adminNotification required; filterProperties: TrackingNumberFilter), and
// the listener's /notifications body scanEventEx (subscriptionId, subscriptionType, timestamp, payload required).

const eventTypes = Type.Union([Type.Literal('ALL_UPDATES'), Type.Literal('DELIVERY_ACTIVITY'), Type.Literal('PACKAGE_DELAYED')]);

/** What shipd sends: the read-only fields (subscriptionId, status reason, timestamps) are USPS's to set. */
export const TrackingSubscriptionRequest = Type.Object(
  {
    listenerURL: Type.String({ format: 'uri', maxLength: 200 }),
    secret: Type.String({ minLength: 32, maxLength: 32 }),
    status: Type.Optional(Type.Union([Type.Literal('DISABLED'), Type.Literal('ENABLED'), Type.Literal('SUSPENDED')])),
    adminNotification: Type.Array(Type.Object({ email: Type.String({ format: 'email', maxLength: 50 }) }), { minItems: 1, maxItems: 3 }),
    filterProperties: Type.Object({ trackingNumber: Type.String({ minLength: 1 }), trackingEventTypes: Type.Optional(Type.Array(eventTypes)) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const TrackingNotification = Type.Object({
  subscriptionId: Type.String(),
  subscriptionType: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  payload: Type.String(),
});
