import { shipdVersion } from '../version.ts';
import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import { apiBase } from './routes.ts';
import { responseHeaders, type ResponseHeader } from './response-headers.ts';
import { restoreParameterDescriptions, restoreRefDescriptions } from './openapi-ref-descriptions.ts';

type Json = Record<string, unknown>;

interface RouteSource {
  schema: FastifySchema;
  headers?: Record<number, ResponseHeader[]>;
}

/**
 * What the generated document cannot say by itself, added from the routes it was made from: the headers each answer
 * carries, as references to the ones declared once, and the descriptions beside `$ref`s that the conversion drops.
 */
function complete(document: Json, routes: ReadonlyMap<string, RouteSource>, schemas: Record<string, unknown>): Json {
  const components = document.components as { schemas: Record<string, unknown> };
  for (const [name, schema] of Object.entries(components.schemas)) restoreRefDescriptions(schemas[name], schema);
  for (const item of Object.values(document.paths as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) {
      const route = routes.get(String(operation.operationId));
      if (!route) continue;
      restoreParameterDescriptions(operation.parameters, route.schema as Json);
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const names = route.headers?.[Number(status)];
        if (names) response.headers = Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
      }
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  const routes = new Map<string, RouteSource>();
  app.addHook('onRoute', (route) => {
    const id = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (id) routes.set(id, { schema: route.schema!, headers: route.config?.responseHeaders });
  });
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
        headers: responseHeaders,
      },
    },
    // Shared schemas become named components (#/components/schemas/Problem), not def-0, def-1…
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // This server writes OpenAPI 3.1 only, never a Swagger 2 object.
    transformObject: (document) => complete((document as { openapiObject: Json }).openapiObject, routes, app.getSchemas()),
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
