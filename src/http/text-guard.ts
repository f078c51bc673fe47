import type { FastifyInstance } from 'fastify';
import type { FieldError } from '../kernel/errors.ts';
import { validationError } from './problems.ts';
import { findUnstorable } from './json-faults.ts';

export const refusedText = (where: FieldError['in'], found: { pointer: string; detail: string }) => validationError([{ in: where, ...found }]);

/**
 * No text shipd stores may hold a NUL character or half of a character (json-faults.ts says why). Refusing them at
 * the door keeps both databases answering alike, with a 400 that names the field: here for the query and the path,
 * in json-body.ts for bodies.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const inQuery = findUnstorable(request.query);
    if (inQuery !== undefined) return done(refusedText('query', inQuery));
    const inPath = findUnstorable(request.params);
    if (inPath !== undefined) return done(refusedText('path', inPath));
    done();
  });
}
