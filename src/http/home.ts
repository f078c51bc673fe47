import type { FastifyInstance } from 'fastify';
import { shipdVersion } from '../version.ts';
import { apiBase } from './routes.ts';

/** A parcel seen from above, in shipd's one colour: small enough to send inline with every tab that asks. */
const icon = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="7" width="26" height="20" rx="2" fill="#1f6feb"/>' +
    '<path d="M3 13h26M16 7v6" stroke="#fff" stroke-width="2"/></svg>',
);

/**
 * What sits at the server's root: someone who opens shipd's address in a browser, or a client exploring it,
 * learns where the dashboard, the API, its OpenAPI document and its reference page are instead of meeting a 404.
 */
export function registerHome(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async () => ({
    name: 'shipd',
    version: shipdVersion,
    description: 'Self-hostable shipping API: orders, rates, labels, tracking and webhooks for UPS, USPS and FedEx',
    dashboard: '/dashboard',
    api: apiBase,
    openapi: '/openapi.json',
    docs: '/docs/',
    health: '/healthz',
  }));
  for (const path of ['/favicon.ico', '/favicon.svg']) {
    app.get(path, { schema: { hide: true } }, (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(icon));
  }
}
