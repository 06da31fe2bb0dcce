// The requests the fuzzer sends to one operation at one version, derived from that version's OpenAPI document:
// valid base inputs, then one location at a time (a path parameter, a query parameter, a body field at any depth,
// or the request as a whole) set to a boundary or hostile value. Nothing here names an operation.
import { Entries, Raw, deeplyNested, jsonText, queryText } from './raw-json.js';
import { hostileSegments, hostileValues, prefixesOf, validValue, type Gen, type Schema } from './schema-values.js';

/** An operation as a version's document describes it. */
export interface DocOperation {
  id: string;
  method: string;
  /** the path at this version, with {param} placeholders */
  path: string;
  pathParams: string[];
  query: Record<string, { schema: Schema; required: boolean; array: boolean }>;
  body: Schema | null;
}

export function docOperations(doc: any): Map<string, DocOperation> {
  const out = new Map<string, DocOperation>();
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const query: DocOperation['query'] = {};
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const array = p.name.endsWith('[]');
        query[array ? p.name.slice(0, -2) : p.name] = { schema: p.schema, required: !!p.required, array };
      }
      out.set(op.operationId, {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]),
        query,
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return out;
}

/** The id prefix of a path parameter: that of the resource its collection (the segment before it) lists or returns. */
export function pathParamPrefix(doc: any, path: string, param: string): string | undefined {
  const at = path.indexOf(`{${param}}`);
  const collection = path.slice(0, at - 1);
  const schemaOf = (s: any): any => (s?.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);
  for (const candidate of [`${collection}/{${param}}`, `${collection}/{id}`, collection]) {
    const get = doc.paths[candidate]?.get;
    const success = get && Object.entries<any>(get.responses).find(([status]) => status.startsWith('2'))?.[1];
    let schema = schemaOf(success?.content?.['application/json']?.schema);
    if (schema?.properties?.data?.items) schema = schemaOf(schema.properties.data.items);
    const prefix = prefixesOf(schema?.properties?.id?.pattern)[0];
    if (prefix) return prefix;
  }
  return undefined;
}

export interface FuzzRequest {
  label: string;
  method: string;
  /** the path after the base path, with its query string */
  target: string;
  contentType?: string;
  body?: string | Buffer;
  /** what the server's parsers will see, to predict whether validation refuses it */
  parsed: { path: Record<string, string>; query: string; body: unknown | undefined; malformed: boolean };
}

type Loc = (string | number)[];

/** The runtime's own page parameters (runtime/pagination.ts) that only make sense as one of a kind. */
const PAGE_ONLY = new Set(['after', 'before', 'last']);

/** Every location of a body schema: object properties at any depth, and the first item of arrays of objects. */
function* bodyLocations(s: Schema, at: Loc = [], depth = 0): Generator<[Loc, Schema]> {
  if (depth > 4) return;
  const objectSchema = s.anyOf?.find((a: Schema) => a.properties) ?? s;
  for (const [key, sub] of Object.entries<Schema>(objectSchema.properties ?? {})) {
    const here = [...at, key];
    yield [here, sub];
    yield* bodyLocations(sub, here, depth + 1);
    const items = sub.items ?? sub.anyOf?.find((a: Schema) => a.items)?.items;
    if (items?.properties) yield* bodyLocations(items, [...here, 0], depth + 1);
  }
}

/** A copy of `base` with the value at `loc` replaced; missing parents are filled with valid values. */
function withValue(base: unknown, schema: Schema, loc: Loc, value: unknown, g: Gen): unknown {
  if (!loc.length) return value;
  const [head, ...rest] = loc;
  const objectSchema = schema.anyOf?.find((a: Schema) => a.properties || a.items) ?? schema;
  const child: Schema = typeof head === 'number' ? objectSchema.items ?? {} : objectSchema.properties?.[head] ?? {};
  const container: any = Array.isArray(base) ? [...base] : base && typeof base === 'object' && !(base instanceof Entries) ? { ...base } : typeof head === 'number' ? [] : {};
  const current = container[head] ?? (rest.length ? validValue(child, g, true) : undefined);
  container[head] = withValue(current, child, rest, value, g);
  return container;
}

/** Query text as a client sends it: arrays as key[]=a&key[]=b, lone surrogates as the bytes of an invalid UTF-8. */
export function queryString(params: Record<string, unknown>, arrays: Set<string>): string {
  const encode = (s: string) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\uFFFD')).replace(/%EF%BF%BD/g, '%ED%A0%80');
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    const key = Array.isArray(v) || arrays.has(k) ? `${k}[]` : k;
    for (const item of values) parts.push(`${encode(key)}=${encode(queryText(item))}`);
  }
  return parts.join('&');
}

export interface Inputs {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Builds the requests; `realPathId` gives a real id for a path parameter. */
export class OperationRequests {
  private readonly arrays: Set<string>;
  constructor(private readonly op: DocOperation, private readonly g: Gen, private readonly realPathId: (param: string) => string,
    private readonly pathPrefix: (param: string) => string | undefined, private readonly realCursor: () => string | undefined) {
    this.arrays = new Set(Object.entries(op.query).filter(([, p]) => p.array).map(([k]) => k));
  }

  base(full: boolean): Inputs {
    const path = Object.fromEntries(this.op.pathParams.map((p) => [p, this.realPathId(p)]));
    // Cursors and `last` are left to their own mutations: a made-up cursor, or first with last, stops every request.
    const query = Object.fromEntries(Object.entries(this.op.query)
      .filter(([name, p]) => p.required || (full && !PAGE_ONLY.has(name) && this.g.next() < 0.3))
      .map(([k, p]) => [k, validValue(p.schema, this.g, full)]));
    const body = this.op.body ? validValue(this.op.body, this.g, full) : undefined;
    return { path, query, body };
  }

  request(label: string, inputs: Inputs, raw?: { body?: string | Buffer; contentType?: string; pathSegments?: Record<string, string> }): FuzzRequest {
    const segments = raw?.pathSegments ?? {};
    const target = this.op.path.replace(/\{([a-z_]+)\}/g, (_, p: string) => segments[p] ?? encodeURIComponent(inputs.path[p]));
    const query = queryString(inputs.query, this.arrays);
    const body = raw?.body ?? (inputs.body === undefined ? undefined : jsonText(inputs.body));
    let parsedBody: unknown;
    let malformed = false;
    if (typeof body === 'string' && (raw?.contentType ?? 'application/json') === 'application/json') {
      try {
        parsedBody = JSON.parse(body);
      } catch {
        malformed = true;
      }
    } else if (body !== undefined) malformed = true;
    let path: Record<string, string>;
    try {
      path = Object.fromEntries(Object.entries(inputs.path).map(([k, v]) => [k, segments[k] === undefined ? v : decodeURIComponent(segments[k])]));
    } catch {
      path = {};
      malformed = true;
    }
    return {
      label: `${this.op.id} ${label}`,
      method: this.op.method,
      target: `${target}${query ? `?${query}` : ''}`,
      contentType: body === undefined ? undefined : raw?.contentType ?? 'application/json',
      body,
      parsed: { path, query, body: parsedBody, malformed },
    };
  }

  /** Every request for this operation: two bases, then each location and value, then whole-request mutations. */
  all(): (() => FuzzRequest)[] {
    const out: (() => FuzzRequest)[] = [];
    const g = this.g;
    const pickBase = () => this.base(g.next() < 0.5);
    out.push(() => this.request('base (required inputs)', this.base(false)));
    out.push(() => this.request('base (every input)', this.base(true)));

    for (const param of this.op.pathParams) {
      for (const h of hostileSegments(this.pathPrefix(param), g)) {
        out.push(() => this.request(`path ${param}: ${h.name}`, pickBase(), { pathSegments: { [param]: String(h.value) } }));
      }
    }
    for (const [name, p] of Object.entries(this.op.query)) {
      const values = [...hostileValues(p.schema, 'query', g), ...(name === 'after' || name === 'before' ? forgedCursors() : [])];
      for (const h of values) {
        out.push(() => {
          const inputs = pickBase();
          return this.request(`query ${name}: ${h.name}`, { ...inputs, query: { ...inputs.query, [name]: h.value } });
        });
      }
    }
    if (this.op.body) {
      const bodySchema = this.op.body;
      for (const [loc, schema] of bodyLocations(bodySchema)) {
        for (const h of hostileValues(schema, 'body', g)) {
          out.push(() => {
            const inputs = pickBase();
            return this.request(`body ${loc.join('.')}: ${h.name}`, { ...inputs, body: withValue(inputs.body, bodySchema, loc, h.value, g) });
          });
        }
      }
    }
    out.push(...this.wholeRequest());
    return out;
  }

  private wholeRequest(): (() => FuzzRequest)[] {
    const g = this.g;
    const inputs = () => this.base(g.next() < 0.5);
    const out: (() => FuzzRequest)[] = [
      () => { const i = inputs(); return this.request('unknown query parameter', { ...i, query: { ...i.query, fuzz_unknown: 'x' } }); },
      ...(['after', 'before'] as const).filter((p) => p in this.op.query).map((p) => () => {
        const i = inputs();
        return this.request(`real cursor in ${p}`, { ...i, query: { ...i.query, [p]: this.realCursor() ?? 'none' } });
      }),
      () => { const i = inputs(); return this.request('query parameter twice', { ...i, query: { ...i.query, ...Object.fromEntries(Object.keys(this.op.query).slice(0, 1).map((k) => [k, ['a', 'b']])) } }); },
    ];
    if (!this.op.body) return out;
    const bodyOf = (i: Inputs) => (i.body && typeof i.body === 'object' ? i.body as Record<string, unknown> : {});
    const fields = Object.keys(this.op.body.properties ?? {});
    const raw = (label: string, body: string | Buffer, contentType?: string) => () => this.request(label, inputs(), { body, contentType });
    out.push(
      () => { const i = inputs(); return this.request('unknown body field', { ...i, body: { ...bodyOf(i), fuzz_unknown: 1 } }); },
      () => { const i = inputs(); return this.request('body __proto__', { ...i, body: new Entries([...Object.entries(bodyOf(i)), ['__proto__', { polluted: true }]]) }); },
      () => { const i = inputs(); return this.request('body constructor key', { ...i, body: { ...bodyOf(i), constructor: { prototype: { polluted: true } } } }); },
      raw('body null', 'null'),
      raw('body array', '[]'),
      raw('body string', '"x"'),
      raw('body number 1e999', '1e999'),
      raw('body empty', ''),
      raw('body truncated', '{"a":'),
      raw('body 10,000-deep', jsonText(deeplyNested(10_000, false))),
      raw('body over 1 MiB', `{"x":"${'x'.repeat(1024 * 1024)}"}`),
      raw('body invalid UTF-8', Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])),
      raw('body as text/plain', '{}', 'text/plain'),
      raw('body as form', 'a=1', 'application/x-www-form-urlencoded'),
    );
    for (const field of fields.slice(0, 3)) {
      out.push(() => {
        const i = inputs();
        const entries = Object.entries(bodyOf(i)).filter(([k]) => k !== field);
        return this.request(`duplicate key ${field}, hostile last`, i, { body: jsonText(new Entries([...entries, [field, 'ok'], [field, new Raw('1e999')]])) });
      });
    }
    return out;
  }
}

/** Cursors a client could forge: base64url JSON of the right shape with values the database must never see. */
export function forgedCursors(): { name: string; value: string }[] {
  const cursor = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  return [
    ['30 February', ['2026-02-30T00:00:00.000Z', 'x_1']],
    ['year 0000', ['0000-01-01T00:00:00.000Z', 'x_1']],
    ['offset -23:59', ['2026-01-01T00:00:00-23:59', 'x_1']],
    ['offset +23:59', ['2026-01-01T00:00:00+23:59', 'x_1']],
    ['NUL id', ['2026-01-01T00:00:00.000Z', 'x\u0000']],
    ['lone surrogate id', ['2026-01-01T00:00:00.000Z', '\ud800']],
    ['NUL value', ['a\u0000', 'x_1']],
    ['2^53+1', '[9007199254740993,"x_1"]'],
    ['1e999', '[1e999,"x_1"]'],
    ['2^31', [2 ** 31, 'x_1']],
    ['long id', ['2026-01-01T00:00:00.000Z', 'x'.repeat(300)]],
    ['object value', [{ a: 1 }, 'x_1']],
    ['three items', ['a', 'b', 'c']],
    ['not JSON', 'not json'],
    ['__proto__', '{"__proto__":{"x":1}}'],
  ].map(([name, v]) => ({ name: `forged cursor ${name as string}`, value: cursor(v) }));
}
