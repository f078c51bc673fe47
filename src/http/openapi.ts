import { shipdVersion } from '../version.ts';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { apiBase } from './routes.ts';

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'shipd',
        version: shipdVersion,
        description:
          'Turn an order into a paid, printable, trackable shipping label with UPS, USPS or FedEx. ' +
          'Keys starting svc_test_ use offline carrier simulators and charge nothing; svc_live_ keys buy real postage. ' +
          'Errors are RFC 9457 problem documents with a stable `code`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_test_…' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: svc_test_…' },
        },
      },
    },
    // Shared schemas become named components (#/components/schemas/Problem), not def-0, def-1…
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  let document: string | undefined;
  const serve = async (_request: unknown, reply: { type(t: string): unknown }) => {
    document ??= JSON.stringify(app.swagger());
    reply.type('application/json; charset=utf-8');
    return document;
  };
  app.get('/openapi.json', { schema: { hide: true } }, serve);
  app.get(`${apiBase}/openapi.json`, { schema: { hide: true } }, serve);
}
