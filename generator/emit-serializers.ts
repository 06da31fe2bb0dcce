// A compiled response writer per operation and version, from the success response schema of that version's OpenAPI
// document: it copies the schema's properties, in the schema's order and nothing else, into plain objects, and
// JSON.stringify writes those, so a field outside the documented shape can never reach a client. Values of a type the
// schema does not expect, free-form objects (metadata, `any`) and operations without a declared shape are copied as
// they are, so they are written as JSON.stringify writes them.
//
// The text is not built by concatenation (as fast-json-stringify builds it for Fastify): a page of ten payments came
// out as a rope of some 1,500 pieces, which Node then had to flatten to write it to the socket. Measured on that
// page (13 KB): concatenation 23 us and writing the text into a Buffer 24 more; copying and JSON.stringify 39 us and
// the flat text's Buffer 6. Under load the flattening showed as the framework's writev costing 64 us a request
// against the same-work baseline's 47 (bench/, GET /payments, CPU profiles).
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

  /** An expression giving what is written for the value `v` (a variable name) by `schema`: `v` itself where the
   * schema leaves it as it is; `place` names an object nested in a component (null: outside any component, named by
   * its source). */
  value(schema: Schema | undefined, v: string, place: string | null = null): string {
    if (!schema || Object.keys(schema).length === 0) return v;
    if (schema.$ref) return `${this.component(refName(schema.$ref))}(${v})`;
    // null needs no test of its own: an object's and an array's copy give back any other value as it is.
    if (schema.anyOf) {
      const others = schema.anyOf.filter((s: Schema) => s.type !== 'null');
      return others.length === 1 ? this.value(others[0], v, place) : v;
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const kinds = types.filter((t) => t !== 'null');
    return kinds.length === 1 ? this.typed(kinds[0], schema, v, place) : v;
  }

  private typed(kind: string, schema: Schema, v: string, place: string | null): string {
    if (kind === 'array') {
      const item = this.value(schema.items, 'x', place && `${place}$item`);
      return item === 'x' ? v : `each(${v}, (x) => ${item})`;
    }
    if (kind === 'object' && schema.properties && !schema.additionalProperties) return `${this.object(schema, place)}(${v})`;
    return v;
  }

  /** A plain object schema (no null, no alternatives): its component's function is its serialiser itself. */
  private isObject(schema: Schema | undefined): schema is Schema {
    return !!schema && schema.type === 'object' && !!schema.properties && !schema.additionalProperties;
  }

  private objectSource(schema: Schema, place: string | null): string {
    const body = Object.entries(schema.properties as Record<string, Schema>).map(([key, s]) => {
      // An object keeps its properties in the order they were added, but for integer-like names, which come first.
      if (/^(0|[1-9]\d*)$/.test(key)) throw new Error(`serializers: the property name '${key}' would not keep its place in the response`);
      // A literal's "__proto__" sets the prototype; a computed one is a property.
      const name = key === '__proto__' ? `[${JSON.stringify(key)}]` : JSON.stringify(key);
      return `    ${name}: ${this.value(s, `v[${JSON.stringify(key)}]`, place && `${place}$${key.replace(/[^A-Za-z0-9_$]/g, '_')}`)},`;
    });
    return `(v) {\n  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;\n  return {\n${body.join('\n')}\n  };\n}`;
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
// Response writers per operation and version (generator/emit-serializers.ts).
/* eslint-disable */
function text(v) {
  const written = JSON.stringify(v);
  return written === undefined ? 'null' : written;
}
function each(v, item) {
  return Array.isArray(v) ? v.map(item) : v;
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
        const expression = `text(${compiler.value(schema, 'v')})`;
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
