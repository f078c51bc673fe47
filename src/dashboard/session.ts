import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { findSession, type DashboardSession } from '../domain/dashboard/sessions.ts';
import type { Services } from '../services.ts';
import { limitAddress, type AddressLimits } from '../http/address-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboard: DashboardSession | null;
  }
}

export const sessionCookie = 'shipd_session';
/** The login form's own CSRF token (double submit), since there is no session yet to hold one. */
export const loginCsrfCookie = 'shipd_login_csrf';

/**
 * Secure, HttpOnly, SameSite=Lax and scoped to the dashboard: never sent to the API, never read by scripts, never
 * sent on another site's form post. Browsers accept Secure cookies over plain http from localhost only.
 */
export const cookieOptions: CookieSerializeOptions = { path: '/dashboard', httpOnly: true, secure: true, sameSite: 'lax' };

export function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A form post must come from our own pages. Browsers send Origin with every POST; a cross-site one names another
 * host, or, from a sandboxed frame, "null". Without Origin (old browsers, curl) the token alone decides.
 */
export function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === request.headers.host || host === new URL(publicUrl).host;
}

export function csrfRefused(reply: FastifyReply): FastifyReply {
  return reply
    .code(403)
    .type('text/html; charset=utf-8')
    .send('<!doctype html><title>Refused</title><p>This form was refused: it did not come from a page of this dashboard, or it has expired. Go back, reload the page and try again.</p>');
}

/**
 * The preHandler of every signed-in page: no session, no page (a sign-in link instead); and every POST must carry
 * the session's CSRF token from one of our own pages. Only the session cookie counts: an API key, in a header or
 * a cookie, opens nothing here.
 */
export function requireSession(services: Services, addresses: AddressLimits) {
  return async function (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const session = await findSession(services.database.db, services.clock, request.cookies[sessionCookie]);
    if (!session) {
      // Signed-in pages are not limited by address (ownRateLimit); a visitor without a session is.
      await limitAddress(addresses, request);
      reply.clearCookie(sessionCookie, cookieOptions);
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/dashboard/login${next}`, 303);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const sent = (request.body as Record<string, unknown> | undefined)?._csrf;
      if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken) || !sameOrigin(request, services.config.publicUrl)) return csrfRefused(reply);
    }
    request.dashboard = session;
    return undefined;
  };
}
