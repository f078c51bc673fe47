import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';

const docsPath = '/docs';

/** Kept compressed only: every browser takes gzip, and a client that does not is given it unpacked at each request. */
interface Asset {
  type: string;
  gzipped: Buffer;
  etag: string;
}

/**
 * What the page is told: the live document beside it, "try it" sent to the server the page came from (at the public
 * URL's path, should shipd sit below one), the Bearer key typed into the page and kept in it alone (persistAuth
 * stays off), and nothing fetched from anywhere else: no web fonts, no telemetry, no AI agent or MCP generator, no
 * developer toolbar, all of which call Scalar's own servers, and no button that opens the document in Scalar's
 * hosted client.
 */
function configuration(publicUrl: string): FastifyApiReferenceOptions['configuration'] {
  return {
    url: '../openapi.json',
    pageTitle: 'shipd API reference',
    favicon: '../favicon.svg',
    servers: [{ url: new URL(publicUrl).pathname.replace(/\/+$/, '') || '/', description: 'This shipd server' }],
    authentication: { preferredSecurityScheme: 'bearerAuth' },
    persistAuth: false,
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    documentDownloadType: 'direct',
    hideClientButton: true,
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    agent: { disabled: true },
    mcp: { disabled: true },
  };
}

/** Scalar's page has an inline script that starts it and styles it injects; everything it may reach is this server. */
function securityHeaders(html: string): Record<string, string> {
  const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html);
  if (!inline) throw new Error('the API reference page has no inline script to allow');
  const hash = createHash('sha256').update(inline[1]!).digest('base64');
  return {
    'Content-Security-Policy':
      `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; ` +
      `font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

interface Reference {
  assets: Record<string, Asset>;
  headers: Record<string, string>;
}

/**
 * The page and its script as Scalar's Fastify plugin makes them, asked of it once in a Fastify instance of its own:
 * the plugin carries its 4 MB browser bundle in the module, which costs a start a third of a second and 20 MB it
 * would keep for good, so nothing of it is loaded before someone opens the page.
 */
async function render(publicUrl: string): Promise<Reference> {
  const { default: apiReference } = await import('@scalar/fastify-api-reference');
  const reference = Fastify({ logger: false });
  try {
    await reference.register(apiReference, { routePrefix: docsPath, configuration: configuration(publicUrl) });
    const assets: Record<string, Asset> = {};
    let headers: Record<string, string> = {};
    for (const path of [`${docsPath}/`, `${docsPath}/js/scalar.js`]) {
      const res = await reference.inject({ method: 'GET', url: path });
      if (res.statusCode !== 200) throw new Error(`the API reference answered ${res.statusCode} for ${path}`);
      if (path === `${docsPath}/`) headers = securityHeaders(res.payload);
      const etag = `"${createHash('sha256').update(res.rawPayload).digest('base64url').slice(0, 27)}"`;
      assets[path] = { type: String(res.headers['content-type']), gzipped: await promisify(gzip)(res.rawPayload), etag };
    }
    return { assets, headers };
  } finally {
    await reference.close();
  }
}

/**
 * GET /docs: the interactive API reference, rendered from the document at /openapi.json by Scalar, served from
 * node_modules. It is made on the first visit and kept; a failure to make it is retried at the next.
 */
export function registerDocs(app: FastifyInstance, publicUrl: string): void {
  let rendering: Promise<Reference> | undefined;
  const reference = () =>
    (rendering ??= render(publicUrl).catch((err: unknown) => {
      rendering = undefined;
      throw err;
    }));

  const serve = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { assets, headers } = await reference();
    const asset = assets[path]!;
    reply.headers(headers).header('Cache-Control', 'no-cache').header('ETag', asset.etag).header('Vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    reply.type(asset.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(asset.gzipped);
    return reply.send(await promisify(gunzip)(asset.gzipped));
  };

  // The page's addresses are relative (js/scalar.js, ../openapi.json), so it lives at /docs/; so is this one, so that
  // it holds below a proxy's path too.
  app.get(docsPath, { schema: { hide: true } }, (_request, reply) => reply.redirect('docs/', 301));
  app.get(`${docsPath}/`, { schema: { hide: true } }, serve(`${docsPath}/`));
  app.get(`${docsPath}/js/scalar.js`, { schema: { hide: true } }, serve(`${docsPath}/js/scalar.js`));
}
