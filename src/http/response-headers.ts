import { ids } from '../schemas/examples.ts';

/**
 * The headers shipd sets on its answers, declared once for the OpenAPI document (components.headers). Their names and
 * formats are those of app.ts (X-Request-Id), rate-limit.ts, auth.ts and address-limit.ts (RateLimit, RateLimit-Policy,
 * Retry-After on 429), problems.ts (Retry-After on a 503 for a lost database) and idempotency.ts (Idempotent-Replayed).
 */
/** What a label or document file may do when a browser opens it: nothing but show itself. */
export const fileSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'";

export const responseHeaders = {
  'X-Request-Id': {
    description:
      "Names this request in shipd's logs; every problem document repeats it as `request_id`. A client's own X-Request-Id of 1 to 200 " +
      'printable ASCII characters is echoed; otherwise shipd makes one.',
    required: true,
    schema: { type: 'string' as const, pattern: '^[!-~]{1,200}$', examples: ['req_5f0c3e8a9b2d4c71a6e0f4b3d2c1e9a8'] },
  },
  RateLimit: {
    description:
      "The API key's rate limit now (IETF RateLimit header fields): `r` requests are left in the key's bucket, which is full again in `t` " +
      'seconds. Sent on every answer once the key is accepted.',
    schema: { type: 'string' as const, pattern: '^"per-key";r=[0-9]+;t=[0-9]+$', examples: ['"per-key";r=199;t=1'] },
  },
  'RateLimit-Policy': {
    description:
      "The API key's quota (IETF RateLimit header fields): bursts of up to `q` requests, the bucket refilling in full over `w` seconds " +
      '(SHIPD_RATE_LIMIT_BURST and SHIPD_RATE_LIMIT_PER_SECOND). Sent with RateLimit.',
    schema: { type: 'string' as const, pattern: '^"per-key";q=[0-9]+;w=[0-9]+$', examples: ['"per-key";q=200;w=2'] },
  },
  'Retry-After': {
    description:
      "Seconds to wait before trying again: on a 429, until the key's bucket (or, for a request without a valid key, the client address's) holds a request again; on a 503, 5 while the database cannot be reached.",
    schema: { type: 'integer' as const, minimum: 1, examples: [1] },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key: nothing was done again. The first answer has no such header.',
    schema: { type: 'boolean' as const, enum: [true] },
  },
  'X-Content-Type-Options': {
    description: 'Sent with every label or document file: the browser must take the file for the type it is sent as, never guess HTML from its bytes.',
    schema: { type: 'string' as const, enum: ['nosniff'] },
  },
  'Content-Security-Policy': {
    description:
      'Sent with every label or document file: nothing in it may run a script, load anything, submit a form or set a base URL. Inline styles ' +
      "are allowed because a browser's own PDF and image viewers use them.",
    schema: { type: 'string' as const, enum: [fileSecurityPolicy] },
  },
  'Content-Disposition': {
    description: "The label or document file's name: its id and format and nothing a client wrote, shown inline.",
    schema: { type: 'string' as const, pattern: '^inline; filename="(shp|bat|man)_[0-9a-z]{26}\\.(pdf|zpl|png)"$', examples: [`inline; filename="${ids.shipment}.pdf"`] },
  },
};

export type ResponseHeader = keyof typeof responseHeaders;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The headers each documented answer of the route carries, by status, for the OpenAPI document. */
    responseHeaders?: Record<number, ResponseHeader[]>;
  }
}

/** Refused before the request is counted against the key's rate limit: an unaccepted key, or a path too long to route. */
const uncounted = new Set([401, 403, 414]);

/** The headers of a route's answers, by status. `replayed`: the statuses an Idempotency-Key's stored answer can have. */
export function answerHeaders(statuses: number[], route: { authenticated: boolean; replayed?: ReadonlySet<number> }): Record<number, ResponseHeader[]> {
  const out: Record<number, ResponseHeader[]> = {};
  for (const status of statuses) {
    const headers: ResponseHeader[] = ['X-Request-Id'];
    if (route.authenticated && !uncounted.has(status)) headers.push('RateLimit', 'RateLimit-Policy');
    if (status === 429 || status === 503) headers.push('Retry-After');
    if (route.replayed?.has(status)) headers.push('Idempotent-Replayed');
    out[status] = headers;
  }
  return out;
}
