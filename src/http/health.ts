import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import { ApiError } from '../kernel/errors.ts';

export function registerHealth(app: FastifyInstance, services: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async () => {
    if (!services.ready) throw new ApiError('service_unavailable', 'Migrations have not finished');
    try {
      await sql`select 1`.execute(services.database.db);
    } catch {
      throw new ApiError('service_unavailable', 'The database cannot be reached');
    }
    return { status: 'ready', database: services.database.kind };
  });
}
