/**
 * The served OpenAPI document as the reliability tests read it: its routes, schema-driven valid values, and what
 * a key got back (ids and links) to aim later requests at. The tests take their routes from here, so a route
 * added to the API is exercised without anyone listing it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema and OpenAPI are read as plain JSON
export type Json = any;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface Route {
  method: string;
  /** The document's path, with `{name}` placeholders. */
  template: string;
  operationId: string;
  parameters: Parameter[];
  body?: Json;
  /** False for routes the document marks `security: []` (the label files). */
  authenticated: boolean;
  /** Whether the route answers 201: it creates something. */
  creates: boolean;
}

export interface ApiDocument {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
}

export function routesOf(doc: ApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      routes.push({
        method: method.toUpperCase(),
        template,
        operationId: op.operationId,
        parameters: (op.parameters ?? []).map((p: Json) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema,
        authenticated: !(Array.isArray(op.security) && op.security.length === 0),
        creates: Object.hasOwn(op.responses ?? {}, '201'),
      });
    }
  }
  return routes;
}

/** Follows `$ref`s to #/components/schemas until a schema that is not one. */
export function resolve(doc: ApiDocument, schema: Json): Json {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) s = doc.components.schemas[s.$ref.replace('#/components/schemas/', '')];
  return s ?? {};
}

/** A seeded PRNG (mulberry32): the same seed gives the same run, so a failure can be replayed. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing');
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Weighted choice: [weight, value] pairs. */
  weighted<T>(options: readonly (readonly [number, T])[]): T {
    let r = this.next() * options.reduce((sum, [w]) => sum + w, 0);
    for (const [w, value] of options) {
      r -= w;
      if (r < 0) return value;
    }
    return options[options.length - 1]![1];
  }
}

const lower = 'abcdefghijklmnopqrstuvwxyz';
const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const classes: Record<string, string> = { d: '0123456789', w: lower + lower.toUpperCase() + '0123456789_', s: ' ', S: lower + '0123456789' };

/** The characters of a `[...]` class, which starts at pattern[at]; returns them and the index after `]`. */
function charClass(pattern: string, at: number): [string, number] {
  let i = at + 1;
  const negated = pattern[i] === '^';
  if (negated) i++;
  let chars = '';
  while (i < pattern.length && pattern[i] !== ']') {
    let c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[++i]!;
      if (classes[e]) {
        chars += classes[e];
        i++;
        continue;
      }
      c = e;
    }
    if (pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']') {
      const end = pattern[i + 2]!.charCodeAt(0);
      for (let code = c.charCodeAt(0); code <= end; code++) chars += String.fromCharCode(code);
      i += 3;
    } else {
      chars += c;
      i++;
    }
  }
  if (negated) chars = [...printable].filter((ch) => !chars.includes(ch)).join('');
  return [chars, i + 1];
}

/**
 * A string matching a regular expression of the small dialect the API's schemas use: literals, classes, \d \w \s \S,
 * groups with alternatives, and the quantifiers ? * + {n} {n,m}. Unbounded repeats stay short.
 */
export function fromPattern(pattern: string, rng: Rng): string {
  let i = 0;
  const alternatives = (): string => {
    const options: string[] = [];
    let current = '';
    while (i < pattern.length && pattern[i] !== ')') {
      if (pattern[i] === '|') {
        options.push(current);
        current = '';
        i++;
        continue;
      }
      current += piece();
    }
    options.push(current);
    return rng.pick(options);
  };
  const piece = (): string => {
    const c = pattern[i]!;
    let atom: () => string;
    if (c === '^' || c === '$') {
      i++;
      return '';
    } else if (c === '(') {
      const start = ++i;
      if (pattern.startsWith('?:', start)) i += 2;
      const from = i;
      // Each repeat of a group is generated anew, so the group's source is kept and re-read.
      let depth = 1;
      let j = from;
      while (j < pattern.length && depth > 0) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')') depth--;
        j++;
      }
      const inner = pattern.slice(from, j - 1);
      i = j;
      atom = () => fromPattern(inner, rng);
    } else if (c === '[') {
      const [chars, next] = charClass(pattern, i);
      i = next;
      atom = () => rng.pick([...chars]);
    } else if (c === '\\') {
      const e = pattern[i + 1]!;
      i += 2;
      atom = classes[e] ? () => rng.pick([...classes[e]!]) : () => e;
    } else if (c === '.') {
      i++;
      atom = () => rng.pick([...lower]);
    } else {
      i++;
      atom = () => c;
    }
    let [min, max] = [1, 1];
    const q = pattern[i];
    if (q === '?') [min, max] = [0, 1];
    else if (q === '*') [min, max] = [0, 3];
    else if (q === '+') [min, max] = [1, 4];
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 3;
      i += m[0].length - 1;
    }
    if (q === '?' || q === '*' || q === '+' || q === '{') i++;
    let out = '';
    for (let n = rng.int(min, max); n > 0; n--) out += atom();
    return out;
  };
  let out = '';
  while (i < pattern.length) out += pattern[i] === '|' || pattern[i] === ')' ? (i++, '') : alternatives();
  return out;
}

/** What a test knows to put in a named field: an id it holds, a receiver URL. Undefined: generate one. */
export type Lookup = (name: string, schema: Json) => unknown;

function validString(schema: Json, rng: Rng): string {
  const min = schema.minLength ?? 1;
  const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
  if (schema.format === 'date-time') return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
  if (schema.format === 'email') return `${fromPattern('[a-z]{3,8}', rng)}@example.com`;
  if (schema.format === 'uri') return `https://example.com/${fromPattern('[a-z]{3,8}', rng)}`;
  const pattern: string | undefined = schema.pattern;
  if (pattern?.startsWith('^')) return fromPattern(pattern, rng);
  const text = fromPattern(`[a-z]{${min},${max}}`, rng);
  return pattern && !new RegExp(pattern).test(text) ? fromPattern(pattern, rng) : text;
}

function validNumber(schema: Json, rng: Rng, integer: boolean): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : 1);
  // Small values: real parcels and quantities are, and carrier limits sit far below the schemas' maximums.
  const high = Math.min(schema.maximum ?? low + 20, low + 20);
  return integer ? rng.int(Math.ceil(low), Math.floor(high)) : Math.round((low + rng.next() * (high - low)) * 10) / 10 || high;
}

/**
 * A value the schema accepts: its example half of the time (examples are written to pass the domain's checks
 * too, which random text rarely does), else generated from its constraints, with fields the lookup knows.
 */
export function validValue(doc: ApiDocument, schema: Json, rng: Rng, lookup: Lookup, name = ''): unknown {
  const s = resolve(doc, schema);
  const known = lookup(name, s);
  if (known !== undefined) return known;
  if (Array.isArray(s.examples) && s.examples.length > 0 && rng.chance(0.5)) {
    const example: Json = structuredClone(rng.pick(s.examples));
    // An example's ids are made up; the ones the caller knows make it one the API can act on.
    if (example && typeof example === 'object' && !Array.isArray(example) && s.properties) {
      for (const key of Object.keys(example)) {
        const own = lookup(key, resolve(doc, s.properties[key]));
        if (own !== undefined) example[key] = own;
      }
    }
    return example;
  }
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return rng.pick(s.enum);
  const union: Json[] | undefined = s.anyOf ?? s.oneOf;
  if (union) {
    const branches = union.filter((b) => resolve(doc, b).type !== 'null');
    return validValue(doc, branches.length > 0 && rng.chance(0.9) ? rng.pick(branches) : rng.pick(union), rng, lookup, name);
  }
  switch (s.type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
      return validNumber(s, rng, true);
    case 'number':
      return validNumber(s, rng, false);
    case 'string':
      return validString(s, rng);
    case 'array': {
      const count = rng.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 2));
      const items = Array.from({ length: count }, () => validValue(doc, s.items ?? {}, rng, lookup, name));
      return s.uniqueItems ? [...new Map(items.map((v) => [JSON.stringify(v), v])).values()] : items;
    }
    default:
      return validObject(doc, s, rng, lookup);
  }
}

function validObject(doc: ApiDocument, s: Json, rng: Rng, lookup: Lookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties: Record<string, Json> = s.properties ?? {};
  const required = new Set<string>(s.required ?? []);
  const optional = Object.keys(properties).filter((k) => !required.has(k));
  for (const key of Object.keys(properties)) {
    if (required.has(key) || rng.chance(0.35)) out[key] = validValue(doc, properties[key], rng, lookup, key);
  }
  while (Object.keys(out).length < (s.minProperties ?? 0) && optional.length > 0) {
    const key = rng.pick(optional);
    out[key] = validValue(doc, properties[key], rng, lookup, key);
  }
  if (typeof s.additionalProperties === 'object' && !s.properties) {
    for (let n = rng.int(0, Math.min(3, s.maxProperties ?? 3)); n > 0; n--) out[fromPattern('[a-z]{1,12}', rng)] = validValue(doc, s.additionalProperties, rng, lookup);
  }
  return out;
}

/** `orders` → `order`, `deliveries` → `delivery`, `batches` → `batch`. */
function singular(word: string): string {
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (/(ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** Collections whose path does not name the object they hold. */
const collectionObjects: Record<string, string> = { 'ship-from': 'location' };

/** The kind of resource a path parameter names: `{order_id}` an order; `{id}` in `/webhooks/{id}` a webhook, in `/carrier-accounts/{id}` a carrier_account. */
export function paramRole(template: string, name: string): string {
  if (name !== 'id') return name.replace(/_id$/, '');
  const segments = template.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? name;
  return collectionObjects[collection] ?? singular(collection).replace(/-/g, '_');
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** The route a concrete path (from a link the API returned) belongs to, with its path parameters. */
export function matchRoute(routes: Route[], path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const names: string[] = [];
    const source = route.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, n: string) => (names.push(n), '([^/]+)'));
    const m = new RegExp(`^${source}$`).exec(path);
    if (m && route.method === 'GET') return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return undefined;
}

/** A resource the API returned: its `object` kind and the whole object. */
export interface Found {
  kind: string;
  object: Record<string, unknown>;
}

/**
 * Everything a key got back that names something: objects with an `id` and an `object` kind, identifier fields
 * (`*_id`, `tracking_number`), and links into the API (`label_url`). Each list keeps its newest `cap` entries.
 */
export class Harvest {
  readonly objects = new Map<string, Found[]>();
  readonly fields = new Map<string, string[]>();
  readonly links: string[] = [];

  constructor(
    private readonly apiPath: string,
    private readonly cap = Infinity,
  ) {}

  collect(value: unknown): void {
    if (Array.isArray(value)) {
      for (const v of value) this.collect(v);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && typeof o.object === 'string' && o.object !== 'list') {
      // A resource seen again replaces what was known of it, so its status is the latest.
      const known = this.objects.get(o.object)?.find((f) => f.object.id === o.id);
      if (known) known.object = o;
      else this.add(this.objects, o.object, { kind: o.object, object: o });
    }
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string') {
        if (k.endsWith('_id') || k === 'tracking_number' || k === 'url') this.add(this.fields, k, v);
        if (k.endsWith('_url') && v.includes(this.apiPath)) this.links.push(v.slice(v.indexOf(this.apiPath)));
      } else {
        this.collect(v);
      }
    }
    if (this.links.length > this.cap) this.links.shift();
  }

  private add<T>(map: Map<string, T[]>, key: string, item: T): void {
    const list = map.get(key) ?? [];
    if (!map.has(key)) map.set(key, list);
    list.push(item);
    if (list.length > this.cap) list.shift();
  }

  /** The resources a role names: of that kind (`delivery` is a `webhook_delivery`), or whose id has the prefix. */
  resources(role: string, prefix?: string): Found[] {
    const out: Found[] = [];
    for (const [kind, list] of this.objects) {
      if (kind === role || kind.endsWith(`_${role}`)) out.push(...list);
      else if (prefix) out.push(...list.filter((f) => String(f.object.id).startsWith(`${prefix}_`)));
    }
    return out;
  }

  /** The values known for a body or query field: `order_id` from orders and from other objects' `order_id`s. */
  values(name: string, schema: Json, usable: (o: Record<string, unknown>) => boolean = () => true): string[] {
    const prefix = typeof schema?.pattern === 'string' ? /^\^([a-z]+)_/.exec(schema.pattern)?.[1] : undefined;
    const own = name.endsWith('_id') ? this.resources(name.replace(/_id$/, ''), prefix).filter((f) => usable(f.object)).map((f) => String(f.object.id)) : [];
    return [...own, ...(this.fields.get(name) ?? [])];
  }
}
