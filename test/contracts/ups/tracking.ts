import { Type } from '@sinclair/typebox';
import { call, container, oneOf, transactionHeaders } from './common.ts';

// UPS Tracking API, our schema of the request shipd builds, from Tracking.yaml in UPS-API/api-documentation at
// commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21): GET /track/v1/details/{inquiryNumber}, server .../api.

const flag = oneOf(['true', 'false']);

/**
 * "Each inquiry number must be between 7 and 34 characters in length"; transId and transactionSrc are required
 * headers here (optional elsewhere). The query holds only the four parameters the spec defines.
 */
export const trackCall = call(/^\/api\/track\/v1\/details\/[^/]{7,34}$/, {
  query: container({
    locale: Type.Optional(Type.String({ pattern: '^[a-z]{2}_[A-Z]{2}$' })),
    returnSignature: Type.Optional(flag),
    returnMilestones: Type.Optional(flag),
    returnPOD: Type.Optional(flag),
  }),
  headers: Type.Object(transactionHeaders),
});
