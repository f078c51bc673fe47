import { Type } from '@sinclair/typebox';

// FedEx Advanced Integrated Visibility push, our schema of the body FedEx posts, from TestWebhookOutputVO
// (developer.fedex.com/api/content/dam/fedex-com/irc/documentation/TestWebhookOutputVO_VB3 3.json): outputMetaData
// beside output.completeTrackResults[], each a CompleteTrackResult of the Track API (trackingNumber, trackResults[]).
// The scan fields shipd reads are those of the Track API's ScanEvent, as test/contracts/fedex/track.ts's source has them.

const scanEvent = Type.Object({
  date: Type.String(),
  eventType: Type.String(),
  eventDescription: Type.String(),
  derivedStatusCode: Type.Optional(Type.String()),
  derivedStatus: Type.Optional(Type.String()),
  scanLocation: Type.Optional(Type.Object({ city: Type.Optional(Type.String()), stateOrProvinceCode: Type.Optional(Type.String()), postalCode: Type.Optional(Type.String()), countryCode: Type.Optional(Type.String()) })),
});

export const TrackingPush = Type.Object({
  outputMetaData: Type.Optional(Type.Array(Type.Object({}))),
  output: Type.Object({
    completeTrackResults: Type.Array(
      Type.Object({ trackingNumber: Type.String({ minLength: 1 }), trackResults: Type.Array(Type.Object({ scanEvents: Type.Optional(Type.Array(scanEvent)) }), { minItems: 1 }) }),
      { minItems: 1 },
    ),
  }),
});
