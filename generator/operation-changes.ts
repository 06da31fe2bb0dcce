// Every change of one operation, by the change's name: its request side (body and query), its response side (the
// operation's own pages and every schema its responses carry, directly or nested) and the endpoint itself (path,
// success status, added, retired). A schema's changes are written against the schema, not the operations, so they
// are indexed here by the operations whose responses carry it: generated/changes-by-operation.json for readers, and
// `npm run diff -- <operation>` (generator/diff.ts) from spec/.
import { BREAKING, operationsUsing, shapesOf } from './change-shapes.js';
import { kindOf, type Instruction, type InstructionKind } from './instructions.js';
import { nearestName } from './nearest-name.js';
import type { ApiSpec, OperationSpec } from './spec-types.js';

export interface OperationChange {
  version: string;
  /** the change's name: spec/versions/<version>/<change>.yaml */
  change: string;
  side: 'request' | 'response' | 'endpoint';
  /** the schema whose change reaches the operation's responses, or null for a change to the operation itself */
  schema: string | null;
  kind: InstructionKind;
  breaking: boolean;
  /** the change in words */
  description: string;
}

/** By operation id: each operation's changes, newest first, in the order their changes list them. */
export function changesByOperation(spec: ApiSpec): Record<string, OperationChange[]> {
  const out: Record<string, OperationChange[]> = {};
  const carriers = new Map<string, string[]>();
  const carrying = (schema: string) => carriers.get(schema) ?? carriers.set(schema, operationsUsing(spec, schema)).get(schema)!;
  for (const version of spec.versions) {
    version.changes.forEach((change, index) => {
      if (change.pending) return;
      for (const i of (change.instructions ?? []) as Instruction[]) {
        const kind = kindOf(i);
        const body = (i as Record<string, Record<string, any>>)[kind];
        const op = body.operation ? spec.operations.find((o) => o.id === body.operation) : undefined;
        const operations: string[] = body.schema ? carrying(body.schema) : [body.operation];
        for (const shape of shapesOf(i, op)) {
          const side = body.schema || shape.in === 'response' ? 'response' : shape.in ? 'request' : 'endpoint';
          for (const id of operations) {
            (out[id] ??= []).push({
              version: version.date, change: change.name ?? `(${index + 1})`, side, schema: body.schema ?? null, kind,
              breaking: BREAKING[kind], description: shape.description,
            });
          }
        }
      }
    });
  }
  return Object.fromEntries(Object.keys(out).sort().map((id) => [id, out[id]]));
}

/** One line of generated/changes-by-operation.json: a change that touches the operation, and where. */
export interface OperationChangeIndex {
  version: string;
  change: string;
  request?: true;
  endpoint?: true;
  /** the schemas its responses carry that the change changed ("" for the operation's own pages) */
  response?: string[];
}

/** The index a reader opens: by operation id, the changes that touch it, newest first (the details: the change's
 * file, or `npm run diff -- <operation>`). */
export function operationChangeIndex(spec: ApiSpec): Record<string, OperationChangeIndex[]> {
  return Object.fromEntries(Object.entries(changesByOperation(spec)).map(([id, changes]) => {
    const rows: OperationChangeIndex[] = [];
    for (const c of changes) {
      let row = rows.find((r) => r.change === c.change);
      if (!row) rows.push(row = { version: c.version, change: c.change });
      if (c.side === 'request') row.request = true;
      else if (c.side === 'endpoint') row.endpoint = true;
      else if (!row.response?.includes(c.schema ?? '')) (row.response ??= []).push(c.schema ?? '');
    }
    return [id, rows];
  }));
}

export function emitChangesByOperation(spec: ApiSpec): string {
  return `${JSON.stringify(operationChangeIndex(spec))}\n`;
}

/** The operation a reader names: its id (any case), `METHOD /path`, or its summary. */
export function findOperation(spec: ApiSpec, name: string): OperationSpec {
  const wanted = name.trim().toLowerCase().replace(/\s+/g, ' ');
  const found = spec.operations.find((op) => op.id === name)
    ?? spec.operations.find((op) => [op.id, `${op.method} ${op.path}`, op.summary].some((n) => n?.toLowerCase() === wanted));
  if (found) return found;
  const near = nearestName(name, spec.operations.map((op) => op.id));
  throw new Error(`no operation ${name}${near ? `; did you mean ${near}?` : ''} (give an operation id, "METHOD /path" or its summary)`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `npm run diff -- <operation>`: its changes grouped by change, newest first. */
export function formatOperationChanges(spec: ApiSpec, op: OperationSpec, changes: OperationChange[]): string {
  const names = [...new Set(changes.map((c) => c.change))];
  const lines = [`Operation ${op.id} (${op.method} ${op.path}): ${plural(changes.length, 'change')} in ${plural(names.length, 'version change')}, newest first`];
  for (const name of names) {
    const mine = changes.filter((c) => c.change === name);
    const unit = spec.versions.find((v) => v.date === mine[0].version)?.changes.find((c) => c.name === name);
    lines.push('', `${mine[0].version}  ${name}${unit?.file ? `  (${unit.file})` : ''}`);
    if (unit) lines.push(`  ${unit.description}`);
    for (const c of mine) {
      const where = c.side === 'response' && c.schema ? `response ${c.schema}` : c.side;
      lines.push(`    ${c.breaking ? 'breaking' : 'additive'}  ${where}: ${c.description}`);
    }
  }
  if (!names.length) lines.push('', 'No version changed it: every version serves it as the head does.');
  return lines.join('\n');
}
