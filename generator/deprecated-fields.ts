// Deprecated fields: a resource's own field, or an operation's query or body field, declared
// `deprecated: { since, successor, sunset?, note? }`. It is still served; what the generator adds is the evidence's
// map: per deprecated field, the operations whose request or response carries it and the event types whose payload
// carries it, each with the versions at which it does (a field renamed, removed or hidden at an older version is not
// carried there). The deprecation report reads that map (generated/deprecated-fields.ts,
// handlers/api_logs/deprecated-usage.ts) against the api logs' operation and version per request and the webhook
// deliveries' event type and rendered version; the sunset check (generator/sunset-evidence.ts) reads the evidence.
import type { Locator } from './check-references.js';
import type { ApiSpec, FieldDeprecation, FieldSpec, OperationSpec, ResourceSpec } from './spec-types.js';
import type { VersionView } from './versions.js';
import type { DeprecatedField } from '../runtime/deprecated-field.js';

type YamlPath = (string | number)[];

/** One declared deprecated field: `Schema.field`, or `operationId.body.field` / `operationId.query.field`. */
export interface DeclaredDeprecation {
  id: string;
  schema?: string;
  operation?: string;
  in?: 'body' | 'query';
  field: string;
  deprecated: FieldDeprecation;
  /** the spec file and YAML path of the field, for messages */
  file: string;
  path: YamlPath;
}

/** What generated/deprecated-fields.ts holds per field. */
export type DeprecatedFieldCarriers = DeprecatedField;

const resourceFile = (spec: ApiSpec, name: string) =>
  (spec.components[name] ? { file: 'spec/api.yaml', path: ['components', name, 'fields'] } : { file: `spec/areas/${spec.resources[name].area}.yaml`, path: ['resources', name, 'fields'] });

/** Every deprecated field the spec declares where a deprecation may be declared. Aliases (same_as) repeat their
 * target's inputs: the target declares them. */
export function declaredDeprecations(spec: ApiSpec): DeclaredDeprecation[] {
  const out: DeclaredDeprecation[] = [];
  for (const [schema, r] of [...Object.entries(spec.components), ...Object.entries(spec.resources)] as [string, ResourceSpec][]) {
    for (const [field, f] of Object.entries(r.fields)) {
      if (!f.deprecated) continue;
      const { file, path } = resourceFile(spec, schema);
      out.push({ id: `${schema}.${field}`, schema, field, deprecated: f.deprecated, file, path: [...path, field] });
    }
  }
  for (const op of spec.operations) {
    if (op.same_as) continue;
    for (const part of ['query', 'body'] as const) {
      for (const [field, f] of Object.entries(op[part] ?? {})) {
        if (!f.deprecated) continue;
        out.push({ id: `${op.id}.${part}.${field}`, operation: op.id, in: part, field, deprecated: f.deprecated,
          file: `spec/areas/${op.area}.yaml`, path: ['operations', op.id, part, field] });
      }
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** A deprecation declared where none can be: its file and the YAML path of its `deprecated` key. */
interface Misplaced { file: string; path: YamlPath }

/** Deprecations on `fields` themselves (where they cannot be: a path parameter, a response's own field) and inside them. */
function* misplaced(fields: Record<string, FieldSpec> | undefined, file: string, path: YamlPath): Generator<Misplaced> {
  for (const [name, f] of Object.entries(fields ?? {})) {
    if (f.deprecated) yield { file, path: [...path, name, 'deprecated'] };
    yield* nestedDeprecations(f, file, [...path, name]);
  }
}

/** Deprecations inside a field: on its nested fields, items or values. */
function* nestedDeprecations(f: FieldSpec, file: string, path: YamlPath): Generator<Misplaced> {
  yield* misplaced(f.fields, file, [...path, 'fields']);
  for (const part of ['items', 'of'] as const) {
    const inner = f[part];
    if (!inner) continue;
    if (inner.deprecated) yield { file, path: [...path, part, 'deprecated'] };
    yield* nestedDeprecations(inner, file, [...path, part]);
  }
}

/** A deprecation's since is a declared version, its successor a sibling field; nothing else is marked deprecated. */
export function checkDeprecatedFields(spec: ApiSpec, at: Locator): string[] {
  const problems: string[] = [];
  const versions = spec.versions.map((v) => v.date);
  for (const d of declaredDeprecations(spec)) {
    const siblings = d.schema ? (spec.components[d.schema] ?? spec.resources[d.schema]).fields
      : spec.operations.find((op) => op.id === d.operation)![d.in!]!;
    if (!versions.includes(d.deprecated.since)) {
      problems.push(`${at(d.file, [...d.path, 'deprecated', 'since'])}: ${d.id} is deprecated since ${d.deprecated.since}, which is not a version of the spec (${versions.join(', ')})`);
    }
    const successor = d.deprecated.successor;
    if (successor !== null && (successor === d.field || !siblings[successor])) {
      problems.push(`${at(d.file, [...d.path, 'deprecated', 'successor'])}: the successor of ${d.id} must be another field beside it, and ${successor} is ${successor === d.field ? 'the field itself' : 'not one'}`);
    }
  }
  const places: Misplaced[] = [];
  for (const [schema, r] of [...Object.entries(spec.components), ...Object.entries(spec.resources)] as [string, ResourceSpec][]) {
    const { file, path } = resourceFile(spec, schema);
    for (const [name, f] of Object.entries(r.fields)) places.push(...nestedDeprecations(f, file, [...path, name]));
  }
  for (const op of spec.operations) {
    const file = `spec/areas/${op.area}.yaml`;
    for (const part of ['query', 'body'] as const) {
      for (const [name, f] of Object.entries(op[part] ?? {})) places.push(...nestedDeprecations(f, file, ['operations', op.id, part, name]));
    }
    places.push(...misplaced(op.path_params, file, ['operations', op.id, 'path_params']));
    places.push(...misplaced(op.response.fields, file, ['operations', op.id, 'response', 'fields']));
    places.push(...misplaced(op.response.list?.fields, file, ['operations', op.id, 'response', 'list', 'fields']));
  }
  // Each position once: a node reused through a YAML anchor is one place in the file.
  const said = new Set<string>();
  for (const { file, path } of places) {
    const where = at(file, path);
    if (said.has(where)) continue;
    said.add(where);
    problems.push(`${where}: deprecated marks a resource's own fields and an operation's query and body fields only`);
  }
  return problems;
}

/** The schemas a field refers to, directly or through its nested fields (money is the Money component). */
function* refsOf(f: FieldSpec): Generator<string> {
  if (f.ref) yield f.ref;
  if (f.type === 'money') yield 'Money';
  for (const g of [f.items, f.of, ...Object.values(f.fields ?? {})]) if (g) yield* refsOf(g);
}

const refsIn = (fields: Record<string, FieldSpec> | undefined) => Object.values(fields ?? {}).flatMap((f) => [...refsOf(f)]);

/** The schemas of a version whose shape includes `target` (itself, and those referring to one that does). */
function schemasReaching(resources: Record<string, ResourceSpec>, target: string): Set<string> {
  const reaching = new Set([target]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, r] of Object.entries(resources)) {
      if (!reaching.has(name) && refsIn(r.fields).some((ref) => reaching.has(ref))) { reaching.add(name); grew = true; }
    }
  }
  return reaching;
}

/** Whether the operation's request or response carries one of the schemas. A delete's answer is { id, deleted }. */
function carriesSchema(op: OperationSpec, schemas: Set<string>): boolean {
  const r = op.response;
  const named = [r.type, r.list?.of].filter((s): s is string => !!s);
  return [...named, ...refsIn(r.fields), ...refsIn(r.list?.fields), ...refsIn(op.query), ...refsIn(op.body)].some((s) => schemas.has(s));
}

export function deprecatedFieldCarriers(spec: ApiSpec, views: VersionView[]): DeprecatedFieldCarriers[] {
  return declaredDeprecations(spec).map((d) => {
    const operations: Record<string, string[]> = {};
    const events: Record<string, string[]> = {};
    const add = (into: Record<string, string[]>, key: string, version: string) => (into[key] ??= []).push(version);
    for (const view of views) {
      if (d.schema) {
        if (!view.resources[d.schema]?.fields[d.field]) continue;
        const reaching = schemasReaching(view.resources, d.schema);
        for (const op of view.operations) if (carriesSchema(op, reaching)) add(operations, op.id, view.date);
        for (const [type, event] of Object.entries(spec.events)) if (reaching.has(event.schema) && view.resources[event.schema]) add(events, type, view.date);
      } else {
        for (const op of view.operations) {
          if ((op.id === d.operation || op.same_as === d.operation) && op[d.in!]?.[d.field]) add(operations, op.id, view.date);
        }
      }
    }
    const sorted = (m: Record<string, string[]>) => Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
    return {
      id: d.id, field: d.field, schema: d.schema ?? null, operation: d.operation ?? null, since: d.deprecated.since,
      successor: d.deprecated.successor, sunset: d.deprecated.sunset ?? null, note: d.deprecated.note ?? null,
      operations: sorted(operations), events: sorted(events),
    };
  });
}

/** generated/deprecated-fields.ts: one line per carrier, so a spec edit changes only the lines it concerns. */
export function emitDeprecatedFields(header: string, carriers: DeprecatedFieldCarriers[]): string {
  const block = (m: Record<string, string[]>) => (Object.keys(m).length
    ? `{\n${Object.entries(m).map(([k, v]) => `      ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n')}\n    }` : '{}');
  const entries = carriers.map((c) => `  {
    id: ${JSON.stringify(c.id)}, field: ${JSON.stringify(c.field)}, schema: ${JSON.stringify(c.schema)}, operation: ${JSON.stringify(c.operation)},
    since: ${JSON.stringify(c.since)}, successor: ${JSON.stringify(c.successor)}, sunset: ${JSON.stringify(c.sunset)}, note: ${JSON.stringify(c.note)},
    operations: ${block(c.operations)},
    events: ${block(c.events)},
  },`);
  return `${header}
// The spec's deprecated fields (generator/deprecated-fields.ts): per field, the operations whose request or response
// carries it and the event types whose payload carries it, each with the versions (newest first) at which it does.
// Read by the deprecation report (handlers/api_logs/deprecated-usage.ts, npm run cli -- deprecations).

import type { DeprecatedField } from '../runtime/deprecated-field.js';

export type { DeprecatedField };

export const deprecatedFields: DeprecatedField[] = ${entries.length ? `[\n${entries.join('\n')}\n]` : '[]'};
`;
}
