import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

type Json = Record<string, unknown>;
type Operation = { parameters?: { in?: string; name?: string }[] };

/** Where the generated module is kept, relative to the package's root. */
export const schemaPath = 'src/schema.ts';

/** The longest path prefix every operation shares: the API's base, which the client puts before each call. */
function commonBase(paths: string[]): string {
  const segments = paths.map((p) => p.split('/'));
  const first = segments[0] ?? [];
  let length = 0;
  while (length < first.length - 1 && segments.every((s) => s.length > length + 1 && s[length] === first[length])) length++;
  return first.slice(0, length).join('/');
}

/**
 * The client's module for a served OpenAPI document: its types as openapi-typescript writes them, with paths relative
 * to the API's base (`/orders`, not `/api/integrations/v1/orders`), and the two facts the client needs at run time,
 * read from the same document: that base, and which POSTs take an Idempotency-Key.
 */
export async function generateSchema(document: Json): Promise<string> {
  const served = document.paths as Record<string, Record<string, Operation>>;
  const base = commonBase(Object.keys(served));
  const paths = Object.fromEntries(Object.entries(served).map(([path, item]) => [path.slice(base.length), item]));
  const idempotent = Object.entries(paths)
    .filter(([, item]) => item.post?.parameters?.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'))
    .map(([path]) => path)
    .sort();
  const runtime = [
    '/** The API\'s base path: every path below is relative to it. */',
    `export const apiBase = ${JSON.stringify(base)};`,
    '/** The POST operations that take an Idempotency-Key header. */',
    `export const idempotentPosts: readonly string[] = ${JSON.stringify(idempotent)};`,
  ].join('\n');
  // A property with a default may be left out of a request; openapi-typescript would otherwise make it required, and
  // shipd's schemas (Address, whose country defaults to US) serve requests and answers alike.
  const ast = await openapiTS({ ...document, paths } as unknown as OpenAPI3, { silent: true, inject: runtime, defaultNonNullable: false });
  return COMMENT_HEADER.replace(' */', ' * Regenerate it with `npm run client:types` at the repository root.\n */') + astToString(ast);
}
