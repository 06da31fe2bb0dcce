// `npm run diff -- <from> <to> [--json]`: every change crossed between two versions, grouped by operation and
// resource, field by field, marked breaking or additive, with the changelog text, the migrations crossed and the
// number of changes still pending.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from './load-spec.js';
import { SpecError } from './spec-source.js';
import { kindOf, type Instruction, type InstructionKind } from './instructions.js';
import type { ApiSpec, FieldSpec, OperationSpec } from './spec-types.js';

const BREAKING: Record<InstructionKind, boolean> = {
  field_added: false, field_removed: true, field_renamed: true, enum_value_added: true, values_renamed: true,
  transformer: true, endpoint_added: false, request_field_rejected: true, request_field_added: false,
  request_field_renamed: true, request_field_required: true, request_values_renamed: true, epoch_timestamps_accepted: true,
  endpoint_moved: true, endpoint_gone: true, money_as_decimal: true, request_transformer: true, status_changed: true,
};

function describe(i: Instruction): string {
  const b = (i as Record<string, any>)[kindOf(i)];
  switch (kindOf(i)) {
    case 'field_added': return `${b.field}: added`;
    case 'field_removed': return `${b.field}: removed${b.copy_from ? ` (was ${b.copy_from})` : ''}`;
    case 'field_renamed': return `${b.from}: renamed to ${b.to}`;
    case 'enum_value_added': return `${b.field}: new value ${b.value} (older versions show ${JSON.stringify(b.fallback)})`;
    case 'values_renamed': return `${b.field}: values renamed (${Object.entries(b.map).map(([n, o]) => `${o} -> ${n}`).join(', ')})`;
    case 'transformer': return `reshaped (${b.name}; see the changelog text)`;
    case 'endpoint_added': return 'endpoint added';
    case 'request_field_rejected': return `${b.in ?? 'body'} ${b.field}: no longer accepted`;
    case 'request_field_added': return `${b.in ?? 'body'} ${b.field}: newly accepted`;
    case 'request_field_renamed': return `${b.in ?? 'body'} ${b.from}: renamed to ${b.to}`;
    case 'request_field_required': return `body ${b.field}: now required`;
    case 'request_values_renamed': {
      const renamed = Object.entries(b.map).map(([o, n]) => `${o} -> ${[n].flat().join('|') || '(nothing)'}`).join(', ');
      const was = b.was && typeof b.was === 'object' && b.was.values
        ? `older values ${[...b.was.values, ...(b.was.nullable ? ['null'] : [])].join(', ')}` : '';
      return `${b.in ?? 'body'} ${b.field}: ${[renamed && `values renamed (${renamed})`, was].filter(Boolean).join('; ')}`;
    }
    case 'money_as_decimal': return `${b.fields.join(', ')}: money objects (were decimal numbers in the major unit)`;
    case 'request_transformer': return `request reshaped (${b.name}; was ${Object.entries(b.was ?? {}).flatMap(([part, f]) => Object.keys(f as object).map((k) => `${part} ${k}`)).join(', ') || 'see the changelog text'})`;
    case 'status_changed': return `success status changed (older versions answer ${b.was})`;
    case 'epoch_timestamps_accepted': return 'timestamp inputs: ISO 8601 only (epoch seconds no longer accepted)';
    case 'endpoint_moved': return `moved from ${b.from}`;
    case 'endpoint_gone': return 'retired: answers 410 gone';
  }
}

/** Operations whose responses contain the schema, directly or nested. */
function operationsUsing(spec: ApiSpec, schema: string): string[] {
  const all = { ...spec.components, ...spec.resources };
  const contains = (f: FieldSpec, seen: Set<string>): boolean => {
    if (f.type === 'ref') return f.ref === schema || (!seen.has(f.ref!) && seen.add(f.ref!) && Object.values(all[f.ref!].fields).some((g) => contains(g, seen)));
    return [f.items, f.of, ...Object.values(f.fields ?? {})].some((g) => g && contains(g, seen));
  };
  return spec.operations.filter((op: OperationSpec) => {
    const r = op.response;
    const top = r.deleted ? 'Deleted' : r.list?.of ?? r.type;
    if (top) return contains({ type: 'ref', ref: top }, new Set());
    return Object.values(r.fields ?? {}).some((f) => contains(f, new Set()));
  }).map((op) => op.id);
}

export interface DiffEntry {
  version: string;
  entry: number | null;
  changelog: string;
  change: string;
  breaking: boolean;
}

export interface Diff {
  from: string;
  to: string;
  versionsCrossed: string[];
  resources: Record<string, { usedBy: string[]; changes: DiffEntry[] }>;
  operations: Record<string, { route: string; changes: DiffEntry[] }>;
  /** behaviour changes (version flags) crossed */
  behaviour: DiffEntry[];
  migrations: { name: string; version: string; changelog: string }[];
  pending: { inRange: number; total: number; entries: { version: string; entry: number | null; changelog: string }[] };
}

function resolve(spec: ApiSpec, date: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(date);
  const v = m && spec.versions.find((x) => x.date <= m[1]);
  if (!v) throw new Error(`${date} is not a date on or after the first version, ${spec.versions[spec.versions.length - 1].date}`);
  return v.date;
}

export function diffVersions(spec: ApiSpec, fromDate: string, toDate: string): Diff {
  let from = resolve(spec, fromDate);
  let to = resolve(spec, toDate);
  if (from > to) [from, to] = [to, from];
  const crossed = spec.versions.filter((v) => v.date > from && v.date <= to).reverse();
  const diff: Diff = {
    from, to, versionsCrossed: crossed.map((v) => v.date), resources: {}, operations: {}, behaviour: [], migrations: [],
    pending: { inRange: 0, total: spec.versions.flatMap((v) => v.changes).filter((c) => c.pending).length, entries: [] },
  };
  for (const version of crossed) {
    for (const change of version.changes) {
      const base = { version: version.date, entry: change.entry ?? null, changelog: change.description };
      if (change.migration) diff.migrations.push({ name: change.migration, version: version.date, changelog: change.description });
      for (const flag of change.flags ?? []) {
        diff.behaviour.push({ ...base, change: `${flag}: ${spec.version_flags[flag]?.description ?? ''}`, breaking: true });
      }
      if (change.pending) {
        diff.pending.inRange++;
        diff.pending.entries.push(base);
        continue;
      }
      for (const i of (change.instructions ?? []) as Instruction[]) {
        const body = (i as Record<string, any>)[kindOf(i)];
        const entry: DiffEntry = { ...base, change: describe(i), breaking: BREAKING[kindOf(i)] };
        if (body.schema) {
          (diff.resources[body.schema] ??= { usedBy: operationsUsing(spec, body.schema), changes: [] }).changes.push(entry);
        } else {
          const op = spec.operations.find((o) => o.id === body.operation)!;
          (diff.operations[body.operation] ??= { route: `${op.method} ${op.path}`, changes: [] }).changes.push(entry);
        }
      }
    }
  }
  return diff;
}

export function formatDiff(d: Diff): string {
  const lines: string[] = [];
  lines.push(`Changes from ${d.from} to ${d.to} (${d.versionsCrossed.length} version${d.versionsCrossed.length === 1 ? '' : 's'} crossed: ${d.versionsCrossed.join(', ') || 'none'})`);
  if (d.migrations.length) {
    lines.push('', 'Migrations crossed:');
    for (const m of d.migrations) lines.push(`  ${m.name} (${m.version}): ${m.changelog}`);
  }
  const entry = (c: DiffEntry) => `    ${c.breaking ? 'breaking' : 'additive'}  ${c.change}    [${c.version}${c.entry ? ` #${c.entry}` : ''}] ${c.changelog}`;
  for (const [name, r] of Object.entries(d.operations).sort()) {
    lines.push('', `Operation ${name} (${r.route})`, ...r.changes.map(entry));
  }
  for (const [name, r] of Object.entries(d.resources).sort()) {
    lines.push('', `Resource ${name}${r.usedBy.length ? ` (in ${r.usedBy.join(', ')})` : ''}`, ...r.changes.map(entry));
  }
  if (d.behaviour.length) lines.push('', 'Behaviour (same shapes, different effects; handlers read these flags)', ...d.behaviour.map(entry));
  const breaking = [...Object.values(d.operations), ...Object.values(d.resources), { changes: d.behaviour }]
    .flatMap((x) => x.changes).filter((c) => c.breaking).length;
  lines.push('', `${breaking} breaking change${breaking === 1 ? '' : 's'} to review.`);
  if (d.pending.inRange) {
    lines.push('', `Pending in this range (recorded; their resources are not built yet): ${d.pending.inRange}`);
    for (const p of d.pending.entries) lines.push(`    [${p.version}${p.entry ? ` #${p.entry}` : ''}] ${p.changelog}`);
  }
  lines.push(`Pending changes in the whole changelog: ${d.pending.total}`);
  return lines.join('\n');
}

function main() {
  const args = process.argv.slice(2).filter((a) => a !== '--json');
  if (args.length !== 2) {
    console.error('usage: npm run diff -- <from-version-date> <to-version-date> [--json]');
    process.exit(2);
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const { spec } = loadSpec(root);
    const d = diffVersions(spec, args[0], args[1]);
    console.log(process.argv.includes('--json') ? JSON.stringify(d, null, 2) : formatDiff(d));
  } catch (e) {
    if (e instanceof SpecError) console.error(e.problems.join('\n'));
    else console.error((e as Error).message);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
