import type { TSchema } from '@sinclair/typebox';
import { sharedSchemas } from '../operations/index.ts';

export type JsonSchema = Record<string, unknown>;

const byId = new Map(sharedSchemas.map((s) => [s.$id!, s]));

/**
 * The schema standalone: every `$ref` to a shared schema replaced by that schema, and no `$id` left. An MCP client
 * gets each tool's schemas alone, with no registry to resolve names in, and compiles them side by side.
 */
export function standalone(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(standalone);
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, $id: _id, ...rest } = schema as JsonSchema;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, standalone(v)]));
  if ($ref === undefined) return own;
  const target = byId.get(String($ref));
  if (!target) throw new Error(`no shared schema "${String($ref)}"`);
  // Keywords beside the $ref (a description of this use) win over the target's own.
  return { ...(standalone(target) as JsonSchema), ...own };
}

/** The schema without its examples, however deep. */
export function withoutExamples(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutExamples);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'examples').map(([key, value]) => [key, withoutExamples(value)]));
}

/** The object schemas of an operation's parts (path, query, body) and any fields of the tool's own, as one object schema. */
export function mergedObject(parts: (TSchema | undefined)[], own: Record<string, JsonSchema>): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const descriptions: string[] = [];
  const objects = [...parts.filter((p) => p !== undefined).map((p) => standalone(p)), { properties: own }];
  for (const object of objects as { properties?: Record<string, unknown>; required?: string[]; description?: string }[]) {
    for (const [name, field] of Object.entries(object.properties ?? {})) {
      // A call's fields are sorted back into their parts by name, so a name may belong to one part only.
      if (name in properties) throw new Error(`the field "${name}" is in two parts of one tool`);
      properties[name] = field;
    }
    required.push(...(object.required ?? []));
    if (object.description) descriptions.push(object.description);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...(descriptions.length > 0 && { description: descriptions.join(' ') }),
  };
}
