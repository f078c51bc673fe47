import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './problems.ts';
import { nul } from './nul-guard.ts';
import { findNul, findOversized, maxCollection } from './json-faults.ts';

/**
 * JSON bodies are parsed as Fastify does, then refused with a 400 naming the field if a string holds a NUL
 * character (see nul-guard.ts) or a collection is larger than any schema takes.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err);
      // A NUL can only come in escaped; the cheap text test spares every other body the walk.
      const withNul = /\\u0000/i.test(text) ? findNul(value) : undefined;
      if (withNul !== undefined) return done(nul('body', withNul));
      // Over `maxCollection` items takes at least two characters each.
      const oversized = text.length > 2 * maxCollection ? findOversized(value) : undefined;
      if (oversized) return done(validationError([{ in: 'body', ...oversized }]));
      done(null, value);
    });
  });
}
