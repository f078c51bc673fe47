import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldError } from '../domain/errors.ts';
import { escapePointer, validationError } from './problems.ts';

/** The JSON Pointer of the first string or key holding a NUL character, if any. */
export function findNul(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${pointer}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return `${pointer}/${escapePointer(k)}`;
      const found = findNul(v, `${pointer}/${escapePointer(k)}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const nul = (where: FieldError['in'], pointer: string) => validationError([{ in: where, pointer, detail: 'must not contain the NUL character (\\u0000)' }]);

/**
 * No text shipd stores may hold a NUL character: PostgreSQL's text type cannot, and no address or note needs
 * one. Refusing it at the door keeps both databases answering alike, with a 400 that names the field.
 */
export function registerNulGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parseJson(request, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err);
      // A NUL can only come in escaped; the cheap text test spares every other body the walk.
      const pointer = /\\u0000/i.test(text) ? findNul(value) : undefined;
      if (pointer !== undefined) return done(nul('body', pointer));
      done(null, value);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const inQuery = findNul(request.query);
    if (inQuery !== undefined) return done(nul('query', inQuery));
    const inPath = findNul(request.params);
    if (inPath !== undefined) return done(nul('path', inPath));
    done();
  });
}
