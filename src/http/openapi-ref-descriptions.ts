type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @fastify/swagger drops every keyword beside a `$ref`, as OpenAPI 3.0 required; 3.1 allows them, and the
 * description of a use (ship_to beside ship_from, both an Address) is what a reader of the document needs. This
 * puts back, from the schema the document was made from, the description beside each `$ref` in `emitted`.
 */
export function restoreRefDescriptions(source: unknown, emitted: unknown): void {
  if (!isObject(source) || !isObject(emitted)) return;
  if (typeof source.$ref === 'string' && typeof source.description === 'string' && typeof emitted.$ref === 'string') {
    emitted.description = source.description;
  }
  if (isObject(source.properties) && isObject(emitted.properties)) {
    for (const [name, property] of Object.entries(source.properties)) restoreRefDescriptions(property, emitted.properties[name]);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = source[key];
    const converted = emitted[key];
    if (Array.isArray(members) && Array.isArray(converted)) members.forEach((member, i) => restoreRefDescriptions(member, converted[i]));
  }
  restoreRefDescriptions(source.items, emitted.items);
  restoreRefDescriptions(source.additionalProperties, emitted.additionalProperties);
  // The conversion turns a record's patternProperties into additionalProperties.
  if (isObject(source.patternProperties)) restoreRefDescriptions(Object.values(source.patternProperties)[0], emitted.additionalProperties);
}

/** The same for an operation's parameters, whose descriptions come from the properties of its params, querystring and headers schemas. */
export function restoreParameterDescriptions(parameters: unknown, routeSchema: Json): void {
  if (!Array.isArray(parameters)) return;
  const parts: Record<string, unknown> = { path: routeSchema.params, query: routeSchema.querystring, header: routeSchema.headers };
  for (const parameter of parameters as Json[]) {
    const part = parts[String(parameter.in)];
    const source = isObject(part) && isObject(part.properties) ? part.properties[String(parameter.name)] : undefined;
    if (isObject(source) && typeof source.$ref === 'string' && typeof source.description === 'string') parameter.description ??= source.description;
  }
}
