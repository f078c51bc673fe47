import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/** Keywords whose values are data, not schemas: copied as they are. */
const dataKeywords = new Set(['examples', 'example', 'default', 'enum', 'const']);

const isNull = (s: unknown) => typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'null' && Object.keys(s).every((k) => k === 'type' || k === 'description');

/**
 * One schema of a single type, not a choice, which fast-json-stringify writes without validating. Not a reference:
 * fast-json-stringify hands what it cannot write directly to ajv, which refuses `nullable` without `type`.
 */
const isPlain = (s: unknown): s is Record<string, unknown> =>
  typeof s === 'object' && s !== null && typeof (s as { type?: unknown }).type === 'string' && !('$ref' in s) && !('anyOf' in s) && !('oneOf' in s) && !('allOf' in s);

/**
 * A copy of a schema for the response serializer in which each "X or null" (`anyOf: [X, { type: 'null' }]`, as
 * TypeBox writes a nullable field) is X with `nullable: true`. The JSON written is the same; but fast-json-stringify
 * writes an anyOf by validating the value against each branch in turn with ajv, on every answer, and a list of
 * rates has a few nullable fields per rate. The OpenAPI document and request validation keep the schemas as written.
 */
export function nullableForSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableForSerializer);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = dataKeywords.has(k) ? v : nullableForSerializer(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex(isNull);
    const other = anyOf[1 - nullAt];
    if (nullAt !== -1 && isPlain(other)) {
      delete out.anyOf;
      return { ...other, ...out, nullable: true };
    }
  }
  return out;
}

/**
 * Fastify's own response serializers, each compiled when its route first answers with that status rather than all
 * before the server listens. Compiling them all took most of start-up (over a second on two cores for shipd's
 * routes, each resolving its references against every shared schema), and many routes may never answer at all.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const shared = externalSchemas && Object.fromEntries(Object.entries(externalSchemas).map(([id, s]) => [id, nullableForSerializer(s)]));
  const compile = SerializerSelector()(shared as typeof externalSchemas, options);
  return (route) => {
    let serialize: Serializer | undefined;
    return (doc) => (serialize ??= compile({ ...route, schema: nullableForSerializer(route.schema) as typeof route.schema }))(doc);
  };
};
