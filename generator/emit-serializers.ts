// A compiled JSON serialiser per operation and version, from the success response schema of that version's OpenAPI
// document (as fast-json-stringify does for Fastify): it writes the schema's properties in the schema's order and
// nothing else, so a field outside the documented shape can never reach a client, and it skips the generic walk
// JSON.stringify makes over every object. Values of a type the schema does not expect, free-form objects (metadata,
// `any`) and operations without a declared shape fall back to JSON.stringify.
import { createHash } from 'node:crypto';

type Schema = Record<string, any>;
interface Document {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: { 'application/json'?: { schema?: Schema } } }> }>>;
  components: { schemas: Record<string, Schema> };
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** What of a schema decides its serialiser: descriptions, formats, patterns and bounds do not, so a change to them
 * leaves generated/serializers.js as it is. */
function shape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shape);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  const out: Schema = {};
  for (const key of ['$ref', 'type', 'additionalProperties']) if (key in s) out[key] = s[key];
  if (s.items) out.items = shape(s.items);
  if (s.anyOf) out.anyOf = shape(s.anyOf);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, shape(v)]));
  return out;
}

/**
 * Names are stable, so that a spec edit changes only the functions it is about: a component's function is named by
 * the component and the first version with its shape (`c_PromoCode_2025_01_01`), an object nested in it by its place
 * (`c_PromoCode_2025_01_01$address`); only response envelopes (made of those names) are named by their source's hash.
 */
class Compiler {
  /** function name -> its source; equal schemas (across versions too) share one function */
  readonly functions = new Map<string, string>();
  private readonly componentNames = new Map<string, string>();
  /** `shared`: a component's name and shape -> its function, across the versions compiled so far */
  constructor(private readonly doc: Document, private readonly date: string, private readonly shared: Map<string, string>) {}

  /** A component's function: shared with an earlier version's when the component and all it reaches serialise alike. */
  component(name: string): string {
    let fn = this.componentNames.get(name);
    if (fn) return fn;
    const key = `${name} ${this.closure(name)}`;
    fn = this.shared.get(key);
    if (!fn) {
      fn = `c_${name}_${this.date.replace(/-/g, '_')}`;
      this.shared.set(key, fn);
    }
    this.componentNames.set(name, fn);
    if (!this.functions.has(fn)) {
      this.functions.set(fn, ''); // reserved: a component may reach itself
      const schema = this.doc.components.schemas[name];
      this.functions.set(fn, this.isObject(schema) ? `function ${fn}${this.objectSource(schema, fn)}` : `function ${fn}(v) {\n  return ${this.value(schema, 'v', fn)};\n}`);
    }
    return fn;
  }

  /** The shape of the component and of every component it reaches, as text. */
  private closure(name: string): string {
    const seen = new Map<string, unknown>();
    const visit = (n: string) => {
      if (seen.has(n)) return;
      const schema = this.doc.components.schemas[n];
      seen.set(n, shape(schema));
      JSON.stringify(schema, (key, value) => {
        if (key === '$ref' && typeof value === 'string') visit(refName(value));
        return value;
      });
    };
    visit(name);
    return JSON.stringify([...seen].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** An expression serialising the value `v` (a variable name) by `schema`; `place` names an object nested in a
   * component (null: outside any component, named by its source). */
  value(schema: Schema | undefined, v: string, place: string | null = null): string {
    if (!schema || Object.keys(schema).length === 0) return `any(${v})`;
    if (schema.$ref) return `${this.component(refName(schema.$ref))}(${v})`;
    if (schema.anyOf) {
      const others = schema.anyOf.filter((s: Schema) => s.type !== 'null');
      const nullable = others.length < schema.anyOf.length;
      const inner = others.length === 1 ? this.value(others[0], v, place) : `any(${v})`;
      return nullable ? `(${v} === null ? 'null' : ${inner})` : inner;
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const nullable = types.includes('null');
    const kinds = types.filter((t) => t !== 'null');
    const inner = kinds.length === 1 ? this.typed(kinds[0], schema, v, place) : `any(${v})`;
    return nullable ? `(${v} === null ? 'null' : ${inner})` : inner;
  }

  private typed(kind: string, schema: Schema, v: string, place: string | null): string {
    switch (kind) {
      case 'string': return `(typeof ${v} === 'string' ? str(${v}) : any(${v}))`;
      case 'integer':
      case 'number': return `(typeof ${v} === 'number' && Number.isFinite(${v}) ? '' + ${v} : any(${v}))`;
      case 'boolean': return `(${v} === true ? 'true' : ${v} === false ? 'false' : any(${v}))`;
      case 'array': return `array(${v}, (x) => ${this.value(schema.items, 'x', place && `${place}$item`)})`;
      case 'object': return schema.properties && !schema.additionalProperties ? `${this.object(schema, place)}(${v})` : `any(${v})`;
      default: return `any(${v})`;
    }
  }

  /** A plain object schema (no null, no alternatives): its component's function is its serialiser itself. */
  private isObject(schema: Schema | undefined): schema is Schema {
    return !!schema && schema.type === 'object' && !!schema.properties && !schema.additionalProperties;
  }

  private objectSource(schema: Schema, place: string | null): string {
    const body = Object.entries(schema.properties as Record<string, Schema>).map(([key, s]) =>
      `  x = v[${JSON.stringify(key)}];\n  if (x !== undefined) { out += sep + ${JSON.stringify(`${JSON.stringify(key)}:`)} + ${this.value(s, 'x', place && `${place}$${key.replace(/[^A-Za-z0-9_$]/g, '_')}`)}; sep = ','; }`);
    return `(v) {\n  if (v === null || typeof v !== 'object' || Array.isArray(v)) return any(v);\n  let out = '{', sep = '', x;\n${body.join('\n')}\n  return out + '}';\n}`;
  }

  private object(schema: Schema, place: string | null): string {
    const source = this.objectSource(schema, place);
    const fn = place ?? `o_${hash(source)}`;
    const existing = this.functions.get(fn);
    if (existing === undefined) this.functions.set(fn, `function ${fn}${source}`);
    else if (existing !== `function ${fn}${source}`) throw new Error(`serializers: two objects named ${fn}`);
    return fn;
  }
}

const PRELUDE = `// Generated by \`npm run generate\` from spec/. Do not edit.
// Response serialisers per operation and version (generator/emit-serializers.ts).
/* eslint-disable */
function any(v) {
  const text = JSON.stringify(v);
  return text === undefined ? 'null' : text;
}
// A string needing no escape is quoted as it is: a regular expression's test costs less than a call into
// JSON.stringify for each of a response's strings (ids, timestamps, statuses).
const NEEDS_ESCAPE = /[\\u0000-\\u001f"\\\\\\ud800-\\udfff]/;
function str(s) {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"';
}
function array(v, item) {
  if (!Array.isArray(v)) return any(v);
  let out = '[';
  for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + item(v[i]);
  return out + ']';
}
`;

/** generated/serializers.js: `serializers[operationId][version]`, for every operation with a response schema. */
export function emitSerializers(documents: Record<string, string>): string {
  const functions = new Map<string, string>();
  const table: Record<string, Record<string, string>> = {};
  const shared = new Map<string, string>();
  for (const version of Object.keys(documents).sort()) {
    const doc = JSON.parse(documents[version]) as Document;
    const compiler = new Compiler(doc, version, shared);
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
        const schema = success?.[1].content?.['application/json']?.schema;
        if (!schema || (schema.type === 'object' && !schema.properties)) continue;
        const expression = compiler.value(schema, 'v');
        const fn = `r_${hash(expression)}`;
        if (!compiler.functions.has(fn)) compiler.functions.set(fn, `function ${fn}(v) {\n  return ${expression};\n}`);
        (table[op.operationId] ??= {})[version] = fn;
      }
    }
    for (const [name, source] of compiler.functions) functions.set(name, source);
  }
  const rows = Object.keys(table).sort().map((id) =>
    `  ${JSON.stringify(id)}: { ${Object.entries(table[id]).map(([v, fn]) => `${JSON.stringify(v)}: ${fn}`).join(', ')} },`);
  return `${PRELUDE}\n${[...functions.keys()].sort().map((n) => functions.get(n)).join('\n\n')}\n\nexport const serializers = {\n${rows.join('\n')}\n};\n`;
}
