import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signIn } from '../../domain/dashboard/users.ts';
import { endSession, findSession, startSession } from '../../domain/dashboard/sessions.ts';
import type { Services } from '../../services.ts';
import { field } from '../forms.ts';
import { render } from '../render.ts';
import { cookieOptions, csrfRefused, loginCsrfCookie, requireSession, sameOrigin, sameToken, sessionCookie } from '../session.ts';

/** Only a path of the dashboard itself: an absolute or protocol-relative `next` would send the user elsewhere. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/dashboard\/(test|live)(\/[\w./?=&%-]*)?$/.test(next) ? next : '/dashboard/test/keys';
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

export function registerLogin(app: FastifyInstance, services: Services): void {
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
    const result = await signIn(db, services.clock, email, field(request, 'password'));
    if (!result.ok) {
      // One message for an unknown email and a wrong password, so the form tells no one which emails exist.
      const error = result.reason === 'locked' ? 'Too many failed sign-ins for this email. Wait 15 minutes, then try again.' : 'The email or the password is wrong.';
      return loginPage(reply, { email, error, next }, result.reason === 'locked' ? 429 : 401);
    }
    const session = await startSession(db, services.clock, result.user);
    reply.clearCookie(loginCsrfCookie, cookieOptions);
    reply.setCookie(sessionCookie, session.id, { ...cookieOptions, maxAge: session.maxAgeSeconds });
    return reply.redirect(next, 303);
  });

  app.post('/logout', { preHandler: requireSession(services) }, async (request, reply) => {
    await endSession(db, request.dashboard!.idHash);
    reply.clearCookie(sessionCookie, cookieOptions);
    return reply.redirect('/dashboard/login', 303);
  });
}
