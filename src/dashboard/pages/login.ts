import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signIn, type SignIn } from '../../domain/dashboard/sign-in.ts';
import { endSession, findSession, startSession } from '../../domain/dashboard/sessions.ts';
import type { Services } from '../../services.ts';
import { takeForAddress, type AddressLimits } from '../../http/address-limit.ts';
import { clientAddress } from '../../http/client-address.ts';
import { field } from '../forms.ts';
import { render } from '../render.ts';
import { cookieOptions, csrfRefused, loginCsrfCookie, requireSession, sameOrigin, sameToken, sessionCookie } from '../session.ts';

/** Only a path of the dashboard itself: an absolute or protocol-relative `next` would send the user elsewhere. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/dashboard\/(test|live)(\/[\w./?=&%-]*)?$/.test(next) ? next : '/dashboard/test/keys';
}

/** What the form says of a refused sign-in, and with which status. One message for an unknown email and a wrong password, so the form tells no one which emails exist. */
function refusal(result: Exclude<SignIn, { ok: true }>): { status: number; error: string; retryAfter?: number } {
  switch (result.reason) {
    case 'wrong':
      return { status: 401, error: 'The email or the password is wrong.' };
    case 'too_long':
      return { status: 400, error: 'The email or the password is longer than any can be.' };
    case 'throttled':
      return { status: 429, error: `Too many failed sign-ins for this email from your network. Try again in ${waitText(result.retryAfterSeconds)}.`, retryAfter: result.retryAfterSeconds };
    case 'busy':
      return { status: 503, error: 'Too many sign-ins at once. Try again in a few seconds.', retryAfter: 2 };
  }
}

function waitText(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function loginPage(reply: FastifyReply, data: { email?: string; error?: string; next: string }, status = 200): FastifyReply {
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(loginCsrfCookie, token, { ...cookieOptions, maxAge: 3600 });
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(render('login', { email: '', error: undefined, ...data, csrf: token }));
}

export function registerLogin(app: FastifyInstance, services: Services, addresses: AddressLimits): void {
  const db = services.database.db;

  app.get('/login', async (request: FastifyRequest, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (await findSession(db, services.clock, request.cookies[sessionCookie])) return reply.redirect(next, 303);
    return loginPage(reply, { next });
  });

  app.post('/login', async (request, reply) => {
    const sent = field(request, '_csrf');
    const expected = request.cookies[loginCsrfCookie];
    if (!expected || !sent || !sameToken(sent, expected) || !sameOrigin(request, services.config.publicUrl)) return csrfRefused(reply);
    const email = field(request, 'email');
    const next = safeNext(field(request, 'next'));
    // Each try costs an Argon2 hash, so an address gets few, whichever emails it tries.
    const allowed = await takeForAddress(addresses, request, 'signIn');
    if (!allowed.allowed) {
      reply.header('Retry-After', String(allowed.retryAfterSeconds));
      return loginPage(reply, { email, error: `Too many sign-in attempts from your network. Try again in ${waitText(allowed.retryAfterSeconds)}.`, next }, 429);
    }
    const result = await signIn(db, services.clock, { email, password: field(request, 'password'), client: clientAddress(request) });
    if (!result.ok) {
      const { status, error, retryAfter } = refusal(result);
      if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
      return loginPage(reply, { email: result.reason === 'too_long' ? '' : email, error, next }, status);
    }
    const session = await startSession(db, services.clock, result.user);
    reply.clearCookie(loginCsrfCookie, cookieOptions);
    reply.setCookie(sessionCookie, session.id, { ...cookieOptions, maxAge: session.maxAgeSeconds });
    return reply.redirect(next, 303);
  });

  app.post('/logout', { preHandler: requireSession(services, addresses), config: { ownRateLimit: true } }, async (request, reply) => {
    await endSession(db, request.dashboard!.idHash);
    reply.clearCookie(sessionCookie, cookieOptions);
    return reply.redirect('/dashboard/login', 303);
  });
}
