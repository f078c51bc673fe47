import type { FastifyInstance } from 'fastify';
import type { FieldError } from '../kernel/errors.ts';
import { validationError } from './problems.ts';
import { findNul, nulDetail } from './json-faults.ts';

export const nul = (where: FieldError['in'], pointer: string) => validationError([{ in: where, pointer, detail: nulDetail }]);

/**
 * No text shipd stores may hold a NUL character: PostgreSQL's text type cannot, and no address or note needs
 * one. Refusing it at the door keeps both databases answering alike, with a 400 that names the field: here for
 * the query and the path, in json-body.ts for bodies.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const inQuery = findNul(request.query);
    if (inQuery !== undefined) return done(nul('query', inQuery));
    const inPath = findNul(request.params);
    if (inPath !== undefined) return done(nul('path', inPath));
    done();
  });
}
