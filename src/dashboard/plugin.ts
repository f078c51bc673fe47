import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { modes } from '../kernel/mode.ts';
import { ApiError } from '../kernel/errors.ts';
import { AccountError } from '../domain/accounts/accounts.ts';
import { findUnstorable } from '../http/json-faults.ts';
import type { AddressLimits } from '../http/address-limit.ts';
import type { Services } from '../services.ts';
import type { Config } from '../config.ts';
import type { PageDeps } from './page-deps.ts';
import { render } from './render.ts';
import { requireSession } from './session.ts';
import { registerLogin } from './pages/login.ts';
import { registerKeys } from './pages/keys.ts';
import { registerWebhooks } from './pages/webhooks.ts';
import { registerOrders } from './pages/orders.ts';
import { registerShipments } from './pages/shipments.ts';
import { registerTrackers } from './pages/trackers.ts';
import { registerManifests } from './pages/manifests.ts';
import { registerPickups } from './pages/pickups.ts';
import { registerBilling } from './pages/billing.ts';
import { registerLocations } from './pages/locations.ts';
import { registerPackages } from './pages/packages.ts';
import { registerCarriers } from './pages/carriers.ts';
import { registerUsers } from './pages/users.ts';

/** What a page module gets: the services, and the mode its routes are registered for. */
const pages: ((app: FastifyInstance, deps: PageDeps) => void)[] = [
  registerKeys,
  registerWebhooks,
  registerOrders,
  registerShipments,
  registerTrackers,
  registerManifests,
  registerPickups,
  registerBilling,
  registerLocations,
  registerPackages,
  registerCarriers,
  registerUsers,
];

const require = createRequire(import.meta.url);
const assets: Record<string, { type: string; body: Buffer }> = {
  'pico.min.css': { type: 'text/css; charset=utf-8', body: readFileSync(require.resolve('@picocss/pico/css/pico.min.css')) },
  'dashboard.css': { type: 'text/css; charset=utf-8', body: readFileSync(join(import.meta.dirname, 'assets', 'dashboard.css')) },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(join(import.meta.dirname, 'assets', 'dashboard.js')) },
};

/**
 * Everything comes from shipd itself: no CDN, no inline script, no framing by another site. Forms post to shipd
 * alone, but for the Billing page's hand-off to Stripe's hosted page: browsers hold a form's redirects to
 * form-action too.
 */
function securityHeaders(config: Config): Record<string, string> {
  const stripe = config.stripe ? ` ${stripeCheckoutOrigins(config.stripe.baseUrl).join(' ')}` : '';
  return {
    'Content-Security-Policy': `default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; form-action 'self'${stripe}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

/** Stripe's hosted pages, and a stand-in's own address where STRIPE_BASE_URL names one. */
const stripeCheckoutOrigins = (baseUrl: string): string[] => {
  const origin = new URL(baseUrl).origin;
  return origin === 'https://api.stripe.com' ? ['https://checkout.stripe.com'] : ['https://checkout.stripe.com', origin];
};

function errorPage(reply: FastifyReply, status: number, title: string, detail: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(render('error', { title, detail }));
}

/** Every dashboard route as "METHOD /path", as registered; the security tests walk them all. */
export const dashboardRoutes = new Set<string>();

/**
 * The web dashboard at /dashboard: server-rendered pages over the domain functions, in a scope of its own, so
 * its form parsing, cookies and HTML errors never reach the JSON API, and its routes stay out of /openapi.json.
 */
export async function registerDashboard(app: FastifyInstance, services: Services, addresses: AddressLimits): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
        for (const method of [route.method].flat()) if (method !== 'HEAD') dashboardRoutes.add(`${method} ${route.url}`);
      });
      await scope.register(formbody, { bodyLimit: 65_536 });
      await scope.register(cookie);
      scope.decorateRequest('dashboard', null);
      scope.decorate('dashboardFeatures', services.config.features);
      // As the API refuses NUL and half characters in JSON (json-faults.ts): no form field needs them.
      scope.addHook('preValidation', (request, reply, done) => {
        const found = findUnstorable(request.body);
        if (found === undefined) return done();
        errorPage(reply, 400, 'The form was refused', `A field ${found.detail}.`);
      });
      const headers = securityHeaders(services.config);
      scope.addHook('onRequest', (_request, reply, done) => {
        reply.headers(headers);
        done();
      });
      scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        if (error instanceof ApiError && error.status < 500) {
          // A 429's Retry-After, above all: a page refused for the address's rate says when to come back.
          if (error.headers) reply.headers(error.headers);
          return errorPage(reply, error.status, error.title, error.detail);
        }
        // The account functions the CLI shares say "no location loc_…" for what is not the account's.
        if (error instanceof AccountError) return errorPage(reply, /^no /.test(error.message) ? 404 : 400, 'The request was refused', error.message);
        if (error.statusCode && error.statusCode < 500) return errorPage(reply, error.statusCode, 'The request was refused', error.message);
        request.log.error({ err: error }, 'dashboard request failed');
        return errorPage(reply, 500, 'Something went wrong', `Our fault. Quote ${request.id} if you report it.`);
      });
      scope.setNotFoundHandler((_request, reply) => errorPage(reply, 404, 'No such page', 'There is no page at this address.'));

      scope.get('/assets/:name', (request, reply) => {
        const name = (request.params as { name: string }).name;
        // Own keys only: `constructor` and its kin are no files.
        const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
        if (!asset) return errorPage(reply, 404, 'No such file', 'There is no such file.');
        return reply.type(asset.type).header('Cache-Control', 'public, max-age=3600').send(asset.body);
      });
      registerLogin(scope, services, addresses);

      await scope.register(async (signedIn) => {
        // No page is served without a session, and no answer of a signed-in page is kept by a cache.
        // A signed-in page knows its visitor: only a visit without a session counts against the address.
        signedIn.addHook('onRoute', (route) => {
          route.config = { ...route.config, ownRateLimit: true };
        });
        signedIn.addHook('preHandler', requireSession(services, addresses));
        signedIn.addHook('onSend', (_request, reply, payload, done) => {
          reply.header('Cache-Control', 'no-store');
          done(null, payload);
        });
        signedIn.get('/', (_request, reply) => reply.redirect('/dashboard/test/keys', 303));
        for (const mode of modes) {
          signedIn.get(`/${mode}`, (_request, reply) => reply.redirect(`/dashboard/${mode}/keys`, 303));
          for (const register of pages) register(signedIn, { services, mode });
        }
      });
    },
    { prefix: '/dashboard' },
  );
}
