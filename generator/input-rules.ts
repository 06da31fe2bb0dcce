// Rules every request input of the spec obeys, so that no value reaches PostgreSQL unchecked. The validators refuse
// what a column cannot hold only if the spec says what that is:
// - every input integer has a range its column holds: `min` and `max`, or `storage: int2 | int4 | int8` (the column
//   type), from which the missing bounds come; every input number has `min` and `max`;
// - every input that names another object (`*_id`, `*_ids`) carries a prefix pattern: `type: id` of a resource
//   with a prefix, or a string with a `pattern`, so '' and another resource's id are 400s naming the field.
// Checked on the head spec and on the older input shapes spec/versions/ declares (`was:`), each problem with
// its file, line and column. Path parameters are not checked: a path id is looked up, and an unknown one is a 404.
import type { ApiSpec, FieldSpec, RawField } from './spec-types.js';
import { rangeOf, STORAGE_RANGE } from './input-range.js';
import { normaliseField } from './normalise.js';
import type { Locator } from './check-references.js';
import type { JsonSchema } from './json-schema.js';

type YamlPath = (string | number)[];

/** Where a field is declared: the file and YAML path, and a dotted name for the message. */
interface Declared {
  file: string;
  path: YamlPath;
  name: string;
}

const isReference = (name: string) => /_ids?$/.test(name);

/** What is wrong with one input field itself (not its children), or null. */
function fieldProblem(spec: ApiSpec, f: FieldSpec, key: string): string | null {
  if (f.type === 'integer') {
    const { min, max } = rangeOf(f);
    if (min === undefined || max === undefined) {
      return 'is an input integer without a range its column holds; give it min and max, or storage: int4 (or int2, int8: its column type) for the rest of the range';
    }
    const [low, high] = f.storage ? STORAGE_RANGE[f.storage] : STORAGE_RANGE.int8;
    if (min < low || max > high) {
      return `has the range ${min}..${max}, beyond ${f.storage ? `what ${f.storage} holds` : 'the integers JSON carries exactly'} (${low}..${high})`;
    }
  }
  if (f.type === 'number' && (f.min === undefined || f.max === undefined)) {
    return 'is an input number without min and max; give it both, within what its column holds';
  }
  if (isReference(key)) {
    const target = f.type === 'array' ? f.items : f;
    const prefix = target?.type === 'id' && target.resource
      ? (spec.resources[target.resource] ?? spec.components[target.resource])?.prefix
      : undefined;
    const plain = target && (target.type === 'string' || target.type === 'id') && !target.pattern && !prefix;
    if (plain) {
      return `names another object (it ends in _id${f.type === 'array' ? 's' : ''}) but takes any string; declare it `
        + '{ type: id, resource: <the resource> } so its prefix is checked (or give it a pattern)';
    }
  }
  return null;
}

/** Problems of input fields and everything they contain, following refs into resources and components once. */
function checkFields(spec: ApiSpec, fields: Record<string, RawField | null>, at: Declared, locate: Locator, seen: Set<string>, out: string[]) {
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === null) continue;
    const here: Declared = { file: at.file, path: [...at.path, key], name: `${at.name}.${key}` };
    checkField(spec, normaliseField(raw), key.split('.').pop()!, here, locate, seen, out);
  }
}

function checkField(spec: ApiSpec, f: FieldSpec, key: string, at: Declared, locate: Locator, seen: Set<string>, out: string[]) {
  const problem = fieldProblem(spec, f, key);
  if (problem) out.push(`${locate(at.file, at.path)}: ${at.name} ${problem}`);
  if (f.fields) checkFields(spec, f.fields, { ...at, path: [...at.path, 'fields'] }, locate, seen, out);
  if (f.items) checkField(spec, f.items, key, { ...at, path: [...at.path, 'items'], name: `${at.name}[]` }, locate, seen, out);
  if (f.of) checkField(spec, f.of, key, { ...at, path: [...at.path, 'of'], name: `${at.name}{}` }, locate, seen, out);
  if (f.type === 'ref' && f.ref && !seen.has(f.ref)) {
    // An input ref is validated with the target's own fields; they are inputs too, reported where declared.
    seen.add(f.ref);
    const resource = spec.resources[f.ref];
    const component = spec.components[f.ref];
    if (resource) checkFields(spec, resource.fields, { file: `spec/areas/${resource.area}.yaml`, path: ['resources', f.ref, 'fields'], name: `resources.${f.ref}` }, locate, seen, out);
    else if (component) checkFields(spec, component.fields, { file: 'spec/api.yaml', path: ['components', f.ref, 'fields'], name: `components.${f.ref}` }, locate, seen, out);
  }
}

/** The older input shapes spec/versions/ declares: each instruction's `was` of a request field. */
function* olderInputs(spec: ApiSpec): Generator<[Record<string, RawField | null>, Declared]> {
  for (const version of spec.versions) {
    for (const [c, change] of version.changes.entries()) {
      for (const [i, instruction] of (change.instructions ?? []).entries()) {
        const base = ['instructions', i];
        const file = change.file ?? 'spec/versions';
        const name = `${version.date} change ${change.name ?? c + 1}`;
        for (const kind of ['request_field_rejected', 'request_values_renamed'] as const) {
          const body = instruction[kind] as { operation: string; field: string; was?: RawField } | undefined;
          if (!body?.was) continue;
          // The field's own name decides the reference rule, so the `was` is checked under it.
          yield [{ [body.field]: body.was }, { file, path: [...base, kind, 'was'], name: `${name} ${kind} ${body.operation}` }];
        }
        const transformer = instruction.request_transformer as
          { operation: string; was?: Record<string, Record<string, RawField | null>> } | undefined;
        for (const [part, fields] of Object.entries(transformer?.was ?? {})) {
          yield [fields, { file, path: [...base, 'request_transformer', 'was', part], name: `${name} request_transformer ${transformer!.operation} was.${part}` }];
        }
      }
    }
  }
}

export function checkInputRules(spec: ApiSpec, locate: Locator): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const op of spec.operations) {
    for (const part of ['query', 'body'] as const) {
      const at = { file: `spec/areas/${op.area}.yaml`, path: ['operations', op.id, part], name: `operations.${op.id}.${part}` };
      checkFields(spec, op[part] ?? {}, at, locate, seen, out);
    }
  }
  for (const [fields, at] of olderInputs(spec)) {
    // A was that names a single field (request_values_renamed) points at the was itself, not at a key under it.
    const single = at.path[at.path.length - 1] === 'was';
    if (single) {
      const [key, raw] = Object.entries(fields)[0];
      if (raw !== null) checkField(spec, normaliseField(raw), key.split('.').pop()!, { ...at, name: `${at.name} ${key}` }, locate, seen, out);
    } else checkFields(spec, fields, at, locate, seen, out);
  }
  return out;
}

/**
 * The same rules on an emitted request schema (every version's, including shapes derived by instructions), as a
 * backstop: a derived input the checks above cannot see must not slip through unbounded. Returns the offending
 * places, as `body.plan.stock`.
 */
export function unruledInputs(schema: JsonSchema, at: string, key = ''): string[] {
  const out: string[] = [];
  const types = ([] as unknown[]).concat(schema.type ?? []);
  // A value that may be a string or a number (metadata values) is a JSON scalar kept in jsonb, whose numeric holds
  // any finite number; only numbers of their own type go to number columns.
  const numeric = (types.includes('integer') || types.includes('number')) && !types.includes('string');
  if (numeric && (!Number.isFinite(schema.minimum) || !Number.isFinite(schema.maximum))) {
    out.push(`${at} has no range`);
  }
  if (isReference(key) && types.includes('string') && !schema.pattern && !schema.enum) out.push(`${at} takes any string`);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, s] of Object.entries(properties)) out.push(...unruledInputs(s, at ? `${at}.${name}` : name, name));
  if (schema.items) out.push(...unruledInputs(schema.items as JsonSchema, `${at}[]`, key));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    out.push(...unruledInputs(schema.additionalProperties as JsonSchema, `${at}{}`, ''));
  }
  for (const s of (schema.anyOf ?? []) as JsonSchema[]) out.push(...unruledInputs(s, at, key));
  return out;
}
