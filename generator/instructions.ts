// The declarative change instructions of spec/versions/<date>/<change>.yaml. Each says what the version BEFORE the change looked
// like, and knows three things: how to derive that older shape from the newer one (for validators and OpenAPI),
// the code that turns a newer response object into the older one (downgrade), and the code that turns an older
// request into the newer one (upgrade).
import type { FieldSpec, OperationSpec, ResourceSpec, RawField } from './spec-types.js';
import { normaliseField } from './normalise.js';

// `converter` names the converter's file beside the change when it is not the change's own name; `module` is set by
// the loader (generator/load-versions.ts): that file's path from the spec folder, without `.ts`.
export interface SchemaInstructions {
  /** the newer version has this field; the older did not */
  field_added?: { schema: string; field: string };
  /** the older version had this field; `copy_from` (a dotted path in the newer object) or `default` gives its value */
  field_removed?: { schema: string; field: string; was: RawField; copy_from?: string; default?: unknown };
  /** the field was called `from` in the older version */
  field_renamed?: { schema: string; from: string; to: string };
  /** the older version did not have this enum value; objects carrying it show `fallback` */
  enum_value_added?: { schema: string; field: string; value: string; fallback: string | null };
  /** values were named differently in the older version: { newer: older } */
  values_renamed?: { schema: string; field: string; map: Record<string, string> };
  /** a hand-written downgrade, the converter beside the change (<change>.ts, or `converter`.ts) exporting `down`;
   * `was` gives the older types of the fields it changes, so the older version's documents say what it returns */
  transformer?: { schema: string; converter?: string; module?: string; description: string; was?: Record<string, RawField | null> };
  /** the older version showed these money objects as decimal numbers in the currency's major unit (10.43) */
  money_as_decimal?: { schema: string; fields: string[] };
  /** the older version showed this field, which the head declares but hides: absent from the head's documents and
   * responses, optional in handlers' types; a stored resource selects it (its `sql:`) only for callers of versions
   * that show it (runtime/plain/hidden-fields.ts) */
  field_hidden?: { schema: string; field: string };
}

export interface OperationInstructions {
  /** the operation did not exist in the older version */
  endpoint_added?: { operation: string };
  /** the older version accepted this body field; the newer rejects it. The head spec keeps the field (the handler
   * still serves older callers); only validators from this version on refuse it. */
  request_field_rejected?: { operation: string; field: string; in?: 'body' | 'query'; was?: RawField };
  /** the newer version accepts this body (or query) field; the older did not */
  request_field_added?: { operation: string; field: string; in?: 'body' | 'query' };
  /** the older version named this body (or query) field `from` */
  request_field_renamed?: { operation: string; from: string; to: string; in?: 'body' | 'query' };
  /** the newer version requires this body field; the older filled `default` when it was missing */
  request_field_required?: { operation: string; field: string; default: unknown };
  /** older request values for a body (or query) field: { older: newer }; for an array field each element is mapped,
   * and an older value may stand for several newer ones (a list) */
  request_values_renamed?: {
    operation: string; field: string; map: Record<string, string | null | string[]>; was?: RawField; in?: 'body' | 'query';
  };
  /** a hand-written request upgrade, the converter beside the change (<change>.ts, or `converter`.ts) exporting
   * `up(input)`; `was` gives the older types of the body and query fields it takes (null: the older version did not
   * take the field) */
  request_transformer?: { operation: string; converter?: string; module?: string; description: string; was?: { body?: Record<string, RawField | null>; query?: Record<string, RawField | null> } };
  /** the older version's pages carried this field beside data and page_info (declared in the head's list.fields,
   * filled by the handler only for callers of those versions) */
  list_field_removed?: { operation: string; field: string };
  /** the older version answered with another success status (e.g. 200 before creation answered 201) */
  status_changed?: { operation: string; was: number };
  /** the operation lived at `from` in the older version; `params` maps older path parameter names to newer ones,
   * and must account for every parameter whose name differs */
  endpoint_moved?: { operation: string; from: string; params?: Record<string, string> };
  /** the operation was retired (410 gone) at this version; its `gone:` declaration must name the same date */
  endpoint_gone?: { operation: string };
  /** the older version also took epoch seconds wherever the operation takes a timestamp */
  epoch_timestamps_accepted?: { operation: string };
}

export type Instruction = SchemaInstructions & OperationInstructions;
export const INSTRUCTION_KINDS = [
  'field_added', 'field_removed', 'field_renamed', 'enum_value_added', 'values_renamed', 'transformer',
  'endpoint_added', 'request_field_rejected', 'request_field_added', 'request_field_renamed', 'request_field_required',
  'request_values_renamed', 'epoch_timestamps_accepted', 'endpoint_moved', 'endpoint_gone', 'money_as_decimal',
  'request_transformer', 'status_changed', 'list_field_removed', 'field_hidden',
] as const;
export type InstructionKind = (typeof INSTRUCTION_KINDS)[number];

export function kindOf(i: Instruction): InstructionKind {
  return INSTRUCTION_KINDS.find((k) => k in i)!;
}

/** The schema (resource/component) or operation an instruction targets. */
export function targetOf(i: Instruction): { schema?: string; operation?: string } {
  const body = (i as Record<string, { schema?: string; operation?: string }>)[kindOf(i)];
  return body.schema ? { schema: body.schema } : { operation: body.operation };
}

// ---- shape derivation ------------------------------------------------------------------------------------------

function splitPath(path: string): string[] {
  return path.split('.');
}

/** Returns a copy of `fields` with the field at a dotted path replaced (or removed, with undefined). */
function editField(
  fields: Record<string, FieldSpec>,
  path: string[],
  edit: (f: FieldSpec | undefined) => FieldSpec | undefined,
  rename?: string,
): Record<string, FieldSpec> {
  const [head, ...rest] = path;
  const out: Record<string, FieldSpec> = {};
  let seen = false;
  for (const [name, f] of Object.entries(fields)) {
    if (name !== head) {
      out[name] = f;
      continue;
    }
    seen = true;
    if (rest.length) {
      out[name] = { ...f, fields: editField(f.fields ?? {}, rest, edit, rename) };
      continue;
    }
    const edited = edit(f);
    if (edited) out[rename ?? name] = edited;
  }
  if (!seen && rest.length === 0) {
    const added = edit(undefined);
    if (added) out[head] = added;
  }
  return out;
}

export function fieldAt(fields: Record<string, FieldSpec>, path: string): FieldSpec | undefined {
  let current: FieldSpec | undefined = { type: 'object', fields };
  for (const part of splitPath(path)) current = current?.fields?.[part];
  return current;
}

export interface Shapes {
  operations: OperationSpec[];
  resources: Record<string, ResourceSpec>;
}

/** Applies one instruction backwards: from the newer shapes to the older ones. `declared` holds the head's resources
 * as the spec declares them (with the fields field_hidden hides). */
export function olderShapes(i: Instruction, shapes: Shapes, original: Map<string, OperationSpec>,
  declared: Record<string, ResourceSpec> = {}): Shapes {
  const resources = { ...shapes.resources };
  let operations = shapes.operations;
  const withSchema = (name: string, edit: (fields: Record<string, FieldSpec>) => Record<string, FieldSpec>) => {
    resources[name] = { ...resources[name], fields: edit(resources[name].fields) };
  };
  const withOp = (id: string, edit: (op: OperationSpec) => OperationSpec) => {
    operations = operations.map((op) => (op.id === id ? edit(op) : op));
  };
  const withBody = (id: string, edit: (fields: Record<string, FieldSpec>) => Record<string, FieldSpec>) =>
    withOp(id, (op) => ({ ...op, body: edit(op.body ?? {}) }));
  const withPart = (id: string, part: 'body' | 'query' | undefined, edit: (fields: Record<string, FieldSpec>) => Record<string, FieldSpec>) =>
    (part === 'query' ? withOp(id, (op) => ({ ...op, query: edit(op.query) })) : withBody(id, edit));

  if (i.field_added) withSchema(i.field_added.schema, (f) => editField(f, splitPath(i.field_added!.field), () => undefined));
  if (i.field_removed) {
    const was = normaliseField(i.field_removed.was);
    withSchema(i.field_removed.schema, (f) => editField(f, splitPath(i.field_removed!.field), () => was));
  }
  if (i.field_hidden) {
    const { schema, field } = i.field_hidden;
    withSchema(schema, (f) => editField(f, [field], () => declared[schema]?.fields[field]));
  }
  if (i.field_renamed) {
    const { from, to } = i.field_renamed;
    const path = splitPath(to);
    withSchema(i.field_renamed.schema, (f) => editField(f, path, (x) => x, from.split('.').pop()));
  }
  if (i.enum_value_added) {
    const { value, fallback } = i.enum_value_added;
    withSchema(i.enum_value_added.schema, (f) => editField(f, splitPath(i.enum_value_added!.field), (x) => x && {
      ...x,
      values: x.values!.filter((v) => v !== value),
      nullable: x.nullable || fallback === null,
    }));
  }
  if (i.values_renamed) {
    const map = i.values_renamed.map;
    withSchema(i.values_renamed.schema, (f) => editField(f, splitPath(i.values_renamed!.field), (x) => x && (x.values
      ? { ...x, values: [...new Set(x.values.map((v) => map[v] ?? v))] }
      : x)));
  }
  if (i.endpoint_added) operations = operations.filter((op) => op.id !== i.endpoint_added!.operation);
  if (i.request_field_rejected) {
    const { operation, field, in: part, was } = i.request_field_rejected;
    const head = original.get(operation);
    const older = was ? normaliseField(was) : (part === 'query' ? head?.query[field] : head?.body?.[field]);
    withPart(operation, part, (f) => editField(f, [field], () => older));
  }
  if (i.request_field_added) {
    withPart(i.request_field_added.operation, i.request_field_added.in, (f) => editField(f, splitPath(i.request_field_added!.field), () => undefined));
  }
  if (i.money_as_decimal) {
    for (const field of i.money_as_decimal.fields) {
      withSchema(i.money_as_decimal.schema, (f) => editField(f, splitPath(field), (x) => x && {
        type: 'number', nullable: x.nullable, description: `${x.description ? `${x.description} ` : ''}A decimal number in the currency's major unit (10.43).`,
      }));
    }
  }
  if (i.request_transformer?.was) {
    for (const part of ['body', 'query'] as const) {
      for (const [field, raw] of Object.entries(i.request_transformer.was[part] ?? {})) {
        withPart(i.request_transformer.operation, part, (f) => editField(f, splitPath(field), () => (raw === null ? undefined : normaliseField(raw))));
      }
    }
  }
  if (i.list_field_removed) {
    const { operation, field } = i.list_field_removed;
    const declared = original.get(operation)?.response.list?.fields?.[field];
    withOp(operation, (op) => ({ ...op, response: { ...op.response, list: { ...op.response.list!, fields: { ...op.response.list!.fields, [field]: declared! } } } }));
  }
  if (i.status_changed) {
    const was = i.status_changed.was;
    withOp(i.status_changed.operation, (op) => ({ ...op, response: { ...op.response, status: was } }));
  }
  if (i.request_field_renamed) {
    const { from, to, operation } = i.request_field_renamed;
    const older = from.split('.').pop()!;
    if ((i.request_field_renamed.in ?? 'body') === 'query') {
      withOp(operation, (op) => ({ ...op, query: editField(op.query, splitPath(to), (x) => x, older) }));
    } else {
      withBody(operation, (f) => editField(f, splitPath(to), (x) => x, older));
    }
  }
  if (i.transformer?.was) {
    for (const [field, raw] of Object.entries(i.transformer.was)) {
      // null: the older version did not have the field
      const was = raw === null ? undefined : normaliseField(raw);
      withSchema(i.transformer.schema, (f) => editField(f, splitPath(field), () => was));
    }
  }
  if (i.request_field_required) {
    withBody(i.request_field_required.operation, (f) => editField(f, splitPath(i.request_field_required!.field), (x) => x && { ...x, required: false }));
  }
  if (i.request_values_renamed) {
    const { map, was } = i.request_values_renamed;
    const renamedTo = Object.values(map).flat();
    const olderValues = (x: FieldSpec): FieldSpec => (x.values
      ? { ...x, values: [...new Set([...x.values.filter((v) => !renamedTo.includes(v)), ...Object.keys(map)])] }
      : x);
    withPart(i.request_values_renamed.operation, i.request_values_renamed.in, (f) => editField(f, splitPath(i.request_values_renamed!.field), (x) => {
      if (!x) return x;
      if (was) return normaliseField(was);
      return x.type === 'array' && x.items ? { ...x, items: olderValues(x.items) } : olderValues(x);
    }));
  }
  if (i.endpoint_moved) {
    const { from } = i.endpoint_moved;
    withOp(i.endpoint_moved.operation, (op) => ({
      ...op,
      path: from,
      path_params: Object.fromEntries(pathParams(from).map((n) => [n, { type: 'string' as const, required: true }])),
    }));
  }
  if (i.epoch_timestamps_accepted) {
    const widen = (fields: Record<string, FieldSpec>) => Object.fromEntries(Object.entries(fields).map(([k, f]) =>
      [k, f.type === 'timestamp' ? { ...f, type: 'epoch_timestamp' as const } : f]));
    withOp(i.epoch_timestamps_accepted.operation, (op) => ({ ...op, query: widen(op.query), body: op.body && widen(op.body) }));
  }
  return { operations, resources };
}

/** Names of an operation's timestamp inputs, by part. */
export function timestampInputs(op: OperationSpec): { part: 'query' | 'body'; name: string }[] {
  const pick = (part: 'query' | 'body', fields: Record<string, FieldSpec> | undefined) =>
    Object.entries(fields ?? {}).filter(([, f]) => f.type === 'timestamp').map(([name]) => ({ part, name }));
  return [...pick('query', op.query), ...pick('body', op.body)];
}

export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

/** Path parameters of the newer path that the move leaves unaccounted for, and older ones that map to nothing. */
export function unexplainedParamChanges(newer: string, i: NonNullable<Instruction['endpoint_moved']>): string[] {
  const older = pathParams(i.from);
  const current = pathParams(newer);
  const map = i.params ?? {};
  const out: string[] = [];
  for (const o of older) {
    const target = map[o] ?? o;
    if (!current.includes(target)) out.push(`older parameter {${o}} has no counterpart in ${newer}`);
  }
  for (const n of current) {
    if (!older.some((o) => (map[o] ?? o) === n)) out.push(`parameter {${n}} of ${newer} has no counterpart in ${i.from}`);
  }
  return out;
}
