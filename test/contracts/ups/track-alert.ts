import { Type } from '@sinclair/typebox';
import { call, container, transactionHeaders } from './common.ts';

// UPS Track Alert, our schemas of its subscription request and of the message UPS posts, from UPSTrackAlert.yaml in
// UPS-API/api-documentation at commit 1265e9815bf21029eeb8f0e5b96264f8818e2069: POST
// /track/v1/subscription/standard/package (server .../api), components TrackSubsServiceRequest and Destination;
// webhooks.TrackingEvent with TrackingEventRequest, ActivityLocation and ActivityStatus.

const onez = Type.String({ pattern: '^1Z[0-9A-Z]{16}$' });

/** locale, countryCode, trackingNumberList (1 to 100 1Z numbers) and destination are required; eventPreference is reserved. */
export const subscriptionCall = call(/^\/api\/track\/v1\/subscription\/standard\/package$/, {
  headers: Type.Object(transactionHeaders),
  body: container({
    locale: Type.String({ pattern: '^[a-z]{2}_[A-Z]{2}$' }),
    countryCode: Type.String({ minLength: 2, maxLength: 2 }),
    trackingNumberList: Type.Array(onez, { minItems: 1, maxItems: 100 }),
    eventPreference: Type.Optional(Type.Array(Type.String())),
    destination: container({ url: Type.String({ format: 'uri' }), credentialType: Type.String({ minLength: 1 }), credential: Type.String({ minLength: 1 }) }),
  }),
});

const date8 = Type.String({ pattern: '^(\\d{4}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01]))?$' });
const time6 = Type.String({ pattern: '^(([01]?\\d|2[0-3])([0-5]?\\d){2})?$' });

/** TrackingEventRequest: "not every field will have a value for every message", so the dates and times may be empty. */
export const trackingEventMessage = container({
  trackingNumber: Type.String({ pattern: '^\\s*1Z[0-9A-Z]{16}$' }),
  localActivityDate: date8,
  localActivityTime: time6,
  activityLocation: container({ city: Type.String(), stateProvince: Type.String(), postalCode: Type.String(), country: Type.String() }),
  activityStatus: container({ type: Type.String(), code: Type.String(), description: Type.String(), descriptionCode: Type.String() }),
  scheduledDeliveryDate: date8,
  actualDeliveryDate: date8,
  actualDeliveryTime: time6,
  gmtActivityDate: date8,
  gmtActivityTime: time6,
  deliveryStartTime: time6,
  deliveryEndTime: time6,
  deliveryTimeDescription: Type.String(),
  deliveryPhoto: Type.Optional(Type.String()),
});
