import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';

export const docsPath = '/docs';

interface Asset {
  type: string;
  body: Buffer;
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

/**
 * The page and its script as Scalar's Fastify plugin makes them, asked of it once in a Fastify instance of its own:
 * the plugin carries its 4 MB browser bundle in the module, which costs a start a third of a second and 35 MB it
 * would keep for good, so nothing of it is loaded before someone opens the page.
 */
async function render(publicUrl: string): Promise<Record<string, Asset>> {
  const { default: apiReference } = await import('@scalar/fastify-api-reference');
  const reference = Fastify({ logger: false });
  try {
    await reference.register(apiReference, { routePrefix: docsPath, configuration: configuration(publicUrl) });
    const assets: Record<string, Asset> = {};
    for (const path of [`${docsPath}/`, `${docsPath}/js/scalar.js`]) {
      const res = await reference.inject({ method: 'GET', url: path });
      if (res.statusCode !== 200) throw new Error(`the API reference answered ${res.statusCode} for ${path}`);
      const body = res.rawPayload;
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      assets[path] = { type: String(res.headers['content-type']), body, gzipped: await promisify(gzip)(body), etag };
    }
    return assets;
  } finally {
    await reference.close();
  }
}

/** Scalar's page has an inline script that starts it and styles it injects; everything it may reach is this server. */
function securityHeaders(inlineScript: string): Record<string, string> {
  const hash = createHash('sha256').update(inlineScript).digest('base64');
  return {
    'Content-Security-Policy':
      `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; ` +
      `font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

const inlineScripts = /<script(?: type="text\/javascript")?>([\s\S]*?)<\/script>/g;

/**
 * GET /docs: the interactive API reference, rendered from the document at /openapi.json by Scalar, served from
 * node_modules. It is made on the first visit and kept; a failure to make it is retried at the next.
 */
export function registerDocs(app: FastifyInstance, publicUrl: string): void {
  let rendering: Promise<Record<string, Asset>> | undefined;
  let headers: Record<string, string> | undefined;
  const assets = () => {
    rendering ??= render(publicUrl).then(
      (made) => {
        const html = made[`${docsPath}/`]!.body.toString();
        headers = securityHeaders([...html.matchAll(inlineScripts)].map((m) => m[1]).filter((s) => s!.trim() !== '')[0] ?? '');
        return made;
      },
      (err: unknown) => {
        rendering = undefined;
        throw err;
      },
    );
    return rendering;
  };

  const serve = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const asset = (await assets())[path]!;
    reply.headers(headers!).header('Cache-Control', 'no-cache').header('ETag', asset.etag).header('Vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    reply.type(asset.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(asset.gzipped);
    return reply.send(asset.body);
  };

  // The page's addresses are relative (js/scalar.js, ../openapi.json), so it lives at /docs/; so is this one, so that
  // it holds below a proxy's path too.
  app.get(docsPath, { schema: { hide: true } }, (_request, reply) => reply.redirect('docs/', 301));
  app.get(`${docsPath}/`, { schema: { hide: true } }, serve(`${docsPath}/`));
  app.get(`${docsPath}/js/scalar.js`, { schema: { hide: true } }, serve(`${docsPath}/js/scalar.js`));
}
