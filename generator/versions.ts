// Derives the API as it stood at every dated version, newest first, from the head spec and the changelog.
// Each change's instructions say what the version before it looked like; applying them newest to oldest
// gives every older version's operations and shapes, which the emitters turn into validators, transformers
// and OpenAPI documents.
import type { ApiSpec, ChangeSpec, FieldSpec, OperationSpec, ResourceSpec } from './spec-types.js';
import { retiredForm, servedForm } from './gone.js';
import { fieldAt, kindOf, olderShapes, targetOf, unexplainedParamChanges, type Instruction, type Shapes } from './instructions.js';

export interface VersionView {
  date: string;
  description: string;
  operations: OperationSpec[];
  resources: Record<string, ResourceSpec>;
}

export interface LocatedChange {
  version: string;
  index: number;
  change: ChangeSpec;
}

/** Every change, newest first, with the version that introduced it. */
export function allChanges(spec: ApiSpec): LocatedChange[] {
  return spec.versions.flatMap((v) => v.changes.map((change, index) => ({ version: v.date, index, change })));
}

function describeChange(c: LocatedChange, at?: string): string {
  return `${at ?? c.change.file ?? 'spec/versions'}: ${c.version} change ${c.change.name ?? c.index + 1} ("${c.change.description.slice(0, 60)}")`;
}

/** The fields each schema's head declares but hides (field_hidden): schema -> fields. */
export function hiddenFields(spec: Pick<ApiSpec, 'versions'>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of allChanges(spec as ApiSpec)) {
    for (const i of (c.change.instructions ?? []) as Instruction[]) {
      if (i.field_hidden) (out.get(i.field_hidden.schema) ?? out.set(i.field_hidden.schema, new Set()).get(i.field_hidden.schema)!).add(i.field_hidden.field);
    }
  }
  return out;
}

/** For each schema with hidden fields: the versions that show some, each with the fields it shows (by name). */
export function shownHiddenFields(spec: ApiSpec, views: VersionView[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [schema, fields] of hiddenFields(spec)) {
    for (const view of views) {
      const shown = [...fields].filter((f) => view.resources[schema]?.fields[f]);
      if (shown.length) (out[schema] ??= {})[view.date] = shown;
    }
  }
  return out;
}

/** Whether the instruction's target exists in the newer shapes it is applied to. */
function targetProblem(i: Instruction, shapes: Shapes, original: Map<string, OperationSpec>,
  declared: Record<string, ResourceSpec>): string | null {
  const kind = kindOf(i);
  const body = (i as Record<string, any>)[kind];
  const { schema, operation } = targetOf(i);
  if (schema) {
    const r = shapes.resources[schema];
    if (!r) return `${kind} targets the schema ${schema}, which does not exist at that version`;
    if (kind === 'field_hidden') {
      if (!declared[schema]?.fields[body.field]) return `field_hidden names ${schema}.${body.field}, which the head does not declare`;
      return r.fields[body.field] ? `field_hidden names ${schema}.${body.field}, which that version still shows` : null;
    }
    const field: string | undefined = body.field ?? body.to;
    const mustExist = kind !== 'field_removed' && kind !== 'transformer';
    if (field && mustExist && !fieldAt(r.fields, field)) return `${kind} targets ${schema}.${field}, which does not exist at that version`;
    if (kind === 'field_removed' && fieldAt(r.fields, body.field)) return `field_removed names ${schema}.${body.field}, which the newer version still has`;
    if (kind === 'money_as_decimal') {
      const notMoney = (body.fields as string[]).filter((f) => fieldAt(r.fields, f)?.type !== 'money');
      return notMoney.length ? `money_as_decimal names ${notMoney.map((f) => `${schema}.${f}`).join(', ')}, not money at that version` : null;
    }
    if (kind === 'enum_value_added' && !fieldAt(r.fields, body.field)?.values?.includes(body.value)) {
      return `enum_value_added names the value ${body.value}, which ${schema}.${body.field} does not have`;
    }
    return null;
  }
  const op = shapes.operations.find((o) => o.id === operation);
  if (!op) return `${kind} targets the operation ${operation}, which does not exist at that version`;
  if (kind === 'endpoint_gone') return null; // checked against the operation's gone: date in check-references.ts
  if (kind === 'endpoint_moved') {
    const unexplained = unexplainedParamChanges(op.path, body);
    return unexplained.length ? `endpoint_moved changes path parameters without saying so (add them to params): ${unexplained.join('; ')}` : null;
  }
  const part = body.in === 'query' ? op.query : op.body;
  if (kind === 'list_field_removed') {
    if (!original.get(operation!)?.response.list?.fields?.[body.field]) return `list_field_removed names ${body.field}, which ${operation} does not declare in response.list.fields`;
    return op.response.list?.fields?.[body.field] ? `list_field_removed names ${body.field}, which ${operation}'s pages still carry at that version` : null;
  }
  const field: string | undefined = kind === 'request_field_renamed' ? body.to : body.field;
  if (field && kind !== 'request_field_rejected' && !(part && fieldAt(part, field))) {
    return `${kind} targets ${operation} field ${field}, which the operation does not take at that version`;
  }
  return null;
}

/** Fields rejected from some version on are absent from the head validator but kept for older callers; internal
 * fields (set only by upgraders) are absent from every version's validators. */
function withoutRejected(operations: OperationSpec[], changes: LocatedChange[]): OperationSpec[] {
  const rejected = changes.flatMap((c) => (c.change.instructions ?? []) as Instruction[])
    .filter((i) => i.request_field_rejected)
    .map((i) => i.request_field_rejected!);
  const keep = (fields: Record<string, FieldSpec>, drop: string[]) =>
    Object.fromEntries(Object.entries(fields).filter(([k, f]) => !drop.includes(k) && !f.internal));
  const listFieldsRemoved = changes.flatMap((c) => (c.change.instructions ?? []) as Instruction[])
    .filter((i) => i.list_field_removed).map((i) => i.list_field_removed!);
  return operations.map((op) => {
    const hidden = listFieldsRemoved.filter((r) => r.operation === op.id).map((r) => r.field);
    if (hidden.length && op.response.list) {
      const fields = Object.fromEntries(Object.entries(op.response.list.fields ?? {}).filter(([k]) => !hidden.includes(k)));
      op = { ...op, response: { ...op.response, list: { ...op.response.list, fields } } };
    }
    const mine = rejected.filter((r) => r.operation === op.id);
    const internal = [...Object.values(op.query), ...Object.values(op.body ?? {})].some((f) => f.internal);
    if (!mine.length && !internal) return op;
    const fromBody = mine.filter((r) => (r.in ?? 'body') === 'body').map((r) => r.field);
    const fromQuery = mine.filter((r) => r.in === 'query').map((r) => r.field);
    return { ...op, query: keep(op.query, fromQuery), body: op.body && keep(op.body, fromBody) };
  });
}

/** The head's operations as handlers see them: rejected and internal inputs out of the validators' shapes. */
export function servedOperations(spec: ApiSpec): OperationSpec[] {
  return withoutRejected(spec.operations, allChanges(spec));
}

export function deriveVersions(spec: ApiSpec): VersionView[] {
  const problems: string[] = [];
  const changes = allChanges(spec);
  const original = new Map(spec.operations.map((op) => [op.id, op]));
  const declared = { ...spec.components, ...spec.resources };
  // The head shows no hidden field; the version before each field_hidden shows it again.
  const hidden = hiddenFields(spec);
  const shown = Object.fromEntries(Object.entries(declared).map(([name, r]) => [name, hidden.has(name)
    ? { ...r, fields: Object.fromEntries(Object.entries(r.fields).filter(([f]) => !hidden.get(name)!.has(f))) }
    : r]));
  // A retired operation with its shape is a 410 down to its endpoint_gone, then served as declared (generator/gone.ts).
  const served = servedOperations(spec);
  let shapes: Shapes = {
    operations: served.map((op) => (op.gone?.shaped ? retiredForm(op) : op)),
    resources: shown,
  };
  const views: VersionView[] = [];
  for (const version of spec.versions) {
    views.push({ date: version.date, description: version.description, ...shapes });
    version.changes.forEach((change, index) => {
      if (change.pending) return;
      for (const [at, instruction] of ((change.instructions ?? []) as Instruction[]).entries()) {
        const problem = targetProblem(instruction, shapes, original, declared);
        if (problem) {
          problems.push(`${describeChange({ version: version.date, index, change }, change.instructionsAt?.[at])}: ${problem}`);
          continue;
        }
        shapes = olderShapes(instruction, shapes, original, declared);
        const back = instruction.endpoint_gone && served.find((op) => op.id === instruction.endpoint_gone!.operation && op.gone?.shaped);
        if (back) shapes = { ...shapes, operations: shapes.operations.map((op) => (op.id === back.id ? servedForm(back) : op)) };
      }
    });
  }
  if (problems.length) throw new VersionProblems(problems);
  return views;
}

export class VersionProblems extends Error {
  constructor(public readonly problems: string[]) {
    super(problems.join('\n'));
  }
}
