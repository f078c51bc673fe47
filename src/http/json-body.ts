import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './problems.ts';
import { refusedText } from './text-guard.ts';
import { findOversized, findUnstorable, maxCollection } from './json-faults.ts';

/**
 * JSON bodies are parsed as Fastify does, then refused with a 400 naming the field if a string holds a NUL
 * character or half of a character (see text-guard.ts) or a collection is larger than any schema takes.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err);
      // A NUL or half a character can only come in escaped (\u0000, \uD800 to \uDFFF): the cheap text test spares
      // every other body the walk.
      const unstorable = /\\u(0000|d[89a-f])/i.test(text) ? findUnstorable(value) : undefined;
      if (unstorable !== undefined) return done(refusedText('body', unstorable));
      // Over `maxCollection` items takes at least two characters each.
      const oversized = text.length > 2 * maxCollection ? findOversized(value) : undefined;
      if (oversized) return done(validationError([{ in: 'body', ...oversized }]));
      done(null, value);
    });
  });
}
