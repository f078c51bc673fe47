import createClient, { mergeHeaders, type Client, type HeadersOptions, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { apiBase, idempotentPosts, type paths } from './schema.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';
import { unwrap } from './errors.ts';

export interface ShipdClientOptions {
  /** svc_test_… or svc_live_… */
  apiKey: string;
  /** Where shipd is served, such as http://localhost:8080; the API's base path is added to it. */
  baseUrl: string;
  /** How calls are retried on 429, 503, network errors and a keyed request's 409 idempotency_key_in_use; false sends each request once. */
  retry?: RetryOptions | false;
  /** Headers sent with every call. */
  headers?: HeadersOptions;
  /** The fetch to send requests with (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

type GetJson<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;
/** Every path whose GET answers a list. */
export type ListPath = { [P in keyof paths]: GetJson<P> extends { object: 'list'; data: unknown[]; has_more: boolean } ? P : never }[keyof paths];
/** The type of the items of a list. */
export type ListItem<P extends ListPath> = GetJson<P> extends { data: (infer T)[] } ? T : never;
type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;

export type ShipdClient = Client<paths> & {
  /**
   * Every item of a list, page after page, newest first: the query (filters, `limit` as the page size) as `GET`
   * takes it, each next page asked for with the cursor of the one before. A page that fails throws a ShipdError.
   */
  list<P extends ListPath>(path: P, ...init: undefined extends ListInit<P> ? [ListInit<P>?] : [ListInit<P>]): AsyncGenerator<ListItem<P>, void, undefined>;
};

const idempotent = new Set(idempotentPosts);

/** An Idempotency-Key on every POST that takes one and was sent without; retries resend the request, key and all. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === 'POST' && idempotent.has(schemaPath) && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
};

type Page = { data: unknown[]; has_more: boolean; next_cursor?: string | null };
type LooseInit = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
type LooseGet = (path: string, init: LooseInit) => Promise<{ data?: Page; error?: unknown; response: Response }>;

export function createShipdClient(options: ShipdClientOptions): ShipdClient {
  const root = options.baseUrl.replace(/\/+$/, '');
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: root.endsWith(apiBase) ? root : root + apiBase,
    headers: mergeHeaders(options.headers, { Authorization: `Bearer ${options.apiKey}` }),
    fetch: options.retry === false ? fetch : retryingFetch(fetch, options.retry),
  });
  client.use(idempotencyKeys);
  // The paths' types narrow the query to each list's own; walking any of them needs only the shape they share.
  const get = client.GET as unknown as LooseGet;
  async function* list(path: string, init: LooseInit = {}): AsyncGenerator<unknown, void, undefined> {
    let cursor: string | null | undefined;
    do {
      const query = cursor ? { ...init.params?.query, cursor } : init.params?.query;
      const page = unwrap(await get(path, { ...init, params: { ...init.params, query } })) as Page;
      yield* page.data;
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
  }
  return Object.assign(client, { list }) as ShipdClient;
}
