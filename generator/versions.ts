// Derives the API as it stood at every dated version, newest first, from the head spec and the changelog.
// Each change's instructions say what the version before it looked like; applying them newest to oldest
// gives every older version's operations and shapes, which the emitters turn into validators, transformers
// and OpenAPI documents.
import type { ApiSpec, ChangeSpec, OperationSpec, ResourceSpec } from './spec-types.js';
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

function describeChange(c: LocatedChange): string {
  return `spec/versions.yaml: ${c.version} change ${c.index + 1} ("${c.change.description.slice(0, 60)}")`;
}

/** Whether the instruction's target exists in the newer shapes it is applied to. */
function targetProblem(i: Instruction, shapes: Shapes): string | null {
  const kind = kindOf(i);
  const body = (i as Record<string, any>)[kind];
  const { schema, operation } = targetOf(i);
  if (schema) {
    const r = shapes.resources[schema];
    if (!r) return `${kind} targets the schema ${schema}, which does not exist at that version`;
    const field: string | undefined = body.field ?? body.to;
    const mustExist = kind !== 'field_removed' && kind !== 'transformer';
    if (field && mustExist && !fieldAt(r.fields, field)) return `${kind} targets ${schema}.${field}, which does not exist at that version`;
    if (kind === 'field_removed' && fieldAt(r.fields, body.field)) return `field_removed names ${schema}.${body.field}, which the newer version still has`;
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
  const part = kind === 'request_field_renamed' && body.in === 'query' ? op.query : op.body;
  const field: string | undefined = kind === 'request_field_renamed' ? body.to : body.field;
  if (field && kind !== 'request_field_rejected' && !(part && fieldAt(part, field))) {
    return `${kind} targets ${operation} field ${field}, which the operation does not take at that version`;
  }
  return null;
}

/** Fields rejected from some version on are absent from the head validator but kept for older callers. */
function withoutRejected(operations: OperationSpec[], changes: LocatedChange[]): OperationSpec[] {
  const rejected = changes.flatMap((c) => (c.change.instructions ?? []) as Instruction[])
    .filter((i) => i.request_field_rejected)
    .map((i) => i.request_field_rejected!);
  return operations.map((op) => {
    const drop = rejected.filter((r) => r.operation === op.id).map((r) => r.field);
    if (!drop.length || !op.body) return op;
    return { ...op, body: Object.fromEntries(Object.entries(op.body).filter(([k]) => !drop.includes(k))) };
  });
}

export function deriveVersions(spec: ApiSpec): VersionView[] {
  const problems: string[] = [];
  const changes = allChanges(spec);
  const original = new Map(spec.operations.map((op) => [op.id, op]));
  let shapes: Shapes = {
    operations: withoutRejected(spec.operations, changes),
    resources: { ...spec.components, ...spec.resources },
  };
  const views: VersionView[] = [];
  for (const version of spec.versions) {
    views.push({ date: version.date, description: version.description, ...shapes });
    version.changes.forEach((change, index) => {
      if (change.pending) return;
      for (const instruction of (change.instructions ?? []) as Instruction[]) {
        const problem = targetProblem(instruction, shapes);
        if (problem) {
          problems.push(`${describeChange({ version: version.date, index, change })}: ${problem}`);
          continue;
        }
        shapes = olderShapes(instruction, shapes, original);
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
