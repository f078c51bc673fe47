import type { FastifyInstance } from 'fastify';
import { serviceContext, type Services } from '../services.ts';
import { receiveCarrierEvent } from '../domain/tracking/carrier-push.ts';
import { ApiError } from '../kernel/errors.ts';
import { apiBase } from '../kernel/paths.ts';
import { limitAddress, type AddressLimits } from './address-limit.ts';

/** The carriers' notifications; larger than any the specs show, smaller than a flood worth reading. */
const bodyLimit = 1_048_576;

/**
 * POST /carrier-events/{carrier}: where UPS Track Alert, USPS tracking subscriptions and FedEx's tracking webhook
 * post their scans. The carrier's to call, not a client's: no API key, and, like Stripe's route, left out of the
 * API's document. The body is read as bytes, since FedEx signs the body as sent. A notification that does not
 * verify is a 401 problem, logged at warn with the reason (never a secret), and counts against its sender's address
 * as any request without a key does; a verified one is never throttled, because UPS does not send an event again.
 */
export async function registerCarrierEvents(app: FastifyInstance, services: Services, addresses: AddressLimits): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { carrier: string } }>(`${apiBase}/carrier-events/:carrier`, { schema: { hide: true }, config: { ownRateLimit: true }, bodyLimit }, async (request, reply) => {
      const { carrier } = request.params;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        const outcome = await receiveCarrierEvent(serviceContext(services, request.id), carrier, raw, request.headers);
        request.log.info({ carrier, numbers: outcome.numbers, trackers: outcome.trackers }, 'carrier event');
        return reply.send({ received: true });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'carrier_event_unverified') {
          request.log.warn({ carrier, reason: err.detail, bytes: raw.length }, 'carrier event refused');
          await limitAddress(addresses, request);
        }
        throw err;
      }
    });
  });
}
