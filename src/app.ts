import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Services } from './services.ts';
import type { Config } from './config.ts';
import { operations as allOperations, featureSchemas, sharedSchemas } from './operations/index.ts';
import { WebhookEventType, webhookEventTypeFor } from './schemas/webhook.ts';
import type { AnyOperation } from './operations/operation.ts';
import { validatorCompiler } from './http/validation.ts';
import { lazySerializers } from './http/serializers.ts';
import { clientErrorHandler, newRequestId, refuseExpectations, registerProblemHandlers, sendProblem } from './http/problems.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerJsonBody } from './http/json-body.ts';
import { ApiError } from './kernel/errors.ts';
import { authenticator } from './http/auth.ts';
import { MemoryBucketStore, type BucketStore } from './http/rate-limit.ts';
import { addressLimiter, type AddressLimits } from './http/address-limit.ts';
import { registerMetrics } from './http/metrics.ts';
import { requestLogger } from './http/request-log.ts';
import { requestLoggerFactory } from './http/request-logger.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerHealth } from './http/health.ts';
import { registerHome } from './http/home.ts';
import { registerDocs } from './http/docs.ts';
import { registerOperations } from './http/routes.ts';
import { registerLabelFiles } from './http/labels.ts';
import { registerStripeWebhooks } from './http/stripe-webhooks.ts';
import { registerCarrierEvents } from './http/carrier-events.ts';
import { registerMcpRoute } from './mcp/http.ts';
import { idempotencyPlugin } from './http/idempotency.ts';
import { idempotencyStore } from './operations/run.ts';
import { setCarrierTraceLog } from './carriers/registry.ts';
import { registerDashboard } from './dashboard/plugin.ts';
import { KeyUsage } from './domain/accounts/key-usage.ts';

const requestIdPattern = /^[\x21-\x7e]{1,200}$/;

export interface AppOptions {
  /** The operations to serve; tests add their own. */
  operations?: AnyOperation[];
  /** How long a duplicate request waits for the first one with its Idempotency-Key. */
  idempotencyWaitMs?: number;
}

/** Rate-limit buckets in this process, or in Redis when REDIS_URL makes several processes share them. */
async function bucketStore(app: FastifyInstance, config: Config, logger: Logger, metrics: Registry): Promise<BucketStore> {
  if (!config.redis) return new MemoryBucketStore();
  // Loaded only here: the Redis client is a tenth of a second of every start that does not use it.
  const { RedisBucketStore } = await import('./http/rate-limit-redis.ts');
  const store = new RedisBucketStore({ ...config.redis, log: logger.child({ component: 'rate-limit' }), metrics });
  await store.connect();
  app.addHook('onClose', (_instance, done) => {
    store.close();
    done();
  });
  return store;
}

/** Builds the HTTP app over already-created services. It does not listen. */
export async function buildApp(services: Services, logger: Logger, options: AppOptions = {}): Promise<FastifyInstance> {
  // A feature that is off has no route and no OpenAPI entry: its paths answer 404 like any unknown path.
  const operations = (options.operations ?? allOperations).filter((op) => !op.feature || services.config.features.has(op.feature));
  setCarrierTraceLog(logger);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // One log line per request, written by our onResponse hook, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: 1_048_576,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    return503OnClosing: true,
    // Only the proxies the operator names may say who the client is (X-Forwarded-For); otherwise the socket's peer is.
    trustProxy: services.config.trustedProxies.length > 0 ? services.config.trustedProxies : false,
    clientErrorHandler: clientErrorHandler(services.config.publicUrl),
    // Errors found while routing, before any hook runs, are problems like every other.
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        request,
        reply,
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('uri_too_long', 'A path parameter is longer than 100 characters')
          : new ApiError('bad_request', 'The URL is not valid (a broken percent-encoding?)'),
        services.config.publicUrl,
      ),
    // A client's X-Request-Id is echoed when it is printable; otherwise we make one.
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && requestIdPattern.test(sent) ? sent : newRequestId();
    },
  });
  app.decorateRequest('principal', null);
  const features = services.config.features;
  const schemas = [...sharedSchemas.map((s) => (s === WebhookEventType ? webhookEventTypeFor(features) : s)), ...[...features].flatMap((f) => featureSchemas[f])];
  refuseExpectations(app.server, services.config.publicUrl);
  app.setValidatorCompiler(validatorCompiler(schemas));
  for (const schema of schemas) app.addSchema(schema);
  // JSON is the only request body the API takes; anything else is a 415 problem.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  registerTextGuard(app);

  registerProblemHandlers(app, services.config.publicUrl);
  // When each key was last used, for the dashboard's key list; MCP calls count too.
  const keyUsage = new KeyUsage(services.database.db, services.clock, (err) => logger.warn({ err }, 'could not record when a key was used'));
  const logRequest = requestLogger(logger);
  const metrics = registerMetrics(app, services.config.metricsToken);
  // One hook for what every answer records: each hook is a step of Fastify's for every request, and the route is
  // read once (request.routeOptions builds an object at each read).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    logRequest(request, reply, route);
    metrics.observe(request.method, reply.statusCode, route, reply.elapsedTime);
    if (request.principal) keyUsage.note(request.principal.keyId);
    done();
  });

  const { addressRateLimit, signInAttemptsPerMinute } = services.config;
  const addresses: AddressLimits = {
    buckets: await bucketStore(app, services.config, logger, metrics.registry),
    unauthenticated: addressRateLimit,
    signIn: { perSecond: signInAttemptsPerMinute / 60, burst: signInAttemptsPerMinute },
  };
  // Every request's first hook, callback-style (no promise): its id on the answer, then, unless the route knows its
  // caller, the limit on the client's address. One hook rather than two: Fastify pays for each hook on every request.
  const limitByAddress = addressLimiter(addresses);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    limitByAddress(request, reply, done);
  });
  registerHealth(app, services);
  registerHome(app);
  await registerOpenApi(app, services.config.publicUrl);
  registerDocs(app, services.config.publicUrl);

  const idempotency = idempotencyStore(services, options.idempotencyWaitMs);
  await app.register(idempotencyPlugin, { store: idempotency });
  const authenticate = authenticator(services.keys, addresses, services.config.rateLimit);
  registerOperations(app, services, operations, authenticate);
  await registerMcpRoute(app, services, idempotency, authenticate);
  registerLabelFiles(app, services, addresses);
  await registerStripeWebhooks(app, services);
  await registerCarrierEvents(app, services, addresses);
  await registerDashboard(app, services, addresses);
  await app.ready();
  return app;
}
