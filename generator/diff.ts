// `npm run diff -- --key <id> [--target <date>]` is the upgrade assistant for one API key: bin/diff.ts sends it to
// bin/upgrade-assistant-cli.ts (the generator imports nothing from bin/; .dependency-cruiser.cjs).
// `npm run diff -- <from> <to> [--breaking] [--json]`: what an integrator crosses when moving a pin between two
// versions. It opens with a summary, groups changes by operation and resource (those with breaking changes first,
// breaking changes first within each), states each changelog entry's text once, and says what hand-written
// transformers change in the words they declare. `--json` gives the same as structured change objects.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from './load-spec.js';
import { SpecError } from './spec-source.js';
import { kindOf, type Instruction, type InstructionKind } from './instructions.js';
import type { ApiSpec, FieldSpec, OperationSpec } from './spec-types.js';
import type { Change as ChangeData, Diff as DiffData } from '../runtime/docs/changelog-data.js';

const BREAKING: Record<InstructionKind, boolean> = {
  field_added: false, field_removed: true, field_renamed: true, enum_value_added: true, values_renamed: true,
  transformer: true, endpoint_added: false, request_field_rejected: true, request_field_added: false,
  request_field_renamed: true, request_field_required: true, request_values_renamed: true, epoch_timestamps_accepted: true,
  endpoint_moved: true, endpoint_gone: true, money_as_decimal: true, request_transformer: true, status_changed: true,
  list_field_removed: true, field_hidden: true,
};

/** One change, its kind narrowed to the spec's instruction kinds; the shapes are the runtime's
 * (runtime/docs/changelog-data.ts), which reads what the generator writes. */
export type Change = ChangeData<InstructionKind | 'behaviour'>;
export type Diff = DiffData<InstructionKind | 'behaviour'>;

type Body = Record<string, any>;
type Shape = Pick<Change, 'field' | 'in' | 'from' | 'to' | 'description'>;

const olderValues = (b: Body): string[] => Object.keys(b.map ?? {});
const newerValues = (b: Body): string[] => Object.values(b.map ?? {}).flatMap((v) => [v].flat().filter((x): x is string => typeof x === 'string'));

/** The change an instruction makes, as field, from and to, and in words. */
function shapesOf(i: Instruction, op: OperationSpec | undefined): Shape[] {
  const kind = kindOf(i);
  const b = (i as Record<string, Body>)[kind];
  const input = (b.in ?? 'body') as 'body' | 'query';
  switch (kind) {
    case 'field_added':
      return [{ field: b.field, in: 'response', from: null, to: 'present', description: `${b.field}: added` }];
    case 'field_removed':
      return [{ field: b.field, in: 'response', from: 'present', to: null,
        description: `${b.field}: removed${b.copy_from ? ` (older versions show ${b.copy_from} under this name)` : ''}` }];
    case 'field_renamed':
      return [{ field: b.to, in: 'response', from: b.from, to: b.to, description: `${b.from}: renamed to ${b.to}` }];
    case 'enum_value_added':
      return [{ field: b.field, in: 'response', from: b.fallback, to: b.value,
        description: `${b.field}: new value ${b.value} (older versions show ${JSON.stringify(b.fallback)})` }];
    case 'values_renamed':
      return [{ field: b.field, in: 'response', from: Object.values(b.map), to: Object.keys(b.map),
        description: `${b.field}: values renamed (${Object.entries(b.map).map(([n, o]) => `${o} -> ${n}`).join(', ')})` }];
    case 'transformer':
      return [{ field: null, in: 'response', from: b.was ?? null, to: null, description: b.description }];
    case 'money_as_decimal':
      return (b.fields as string[]).map((field) => ({ field, in: 'response' as const, from: 'decimal number in the major unit',
        to: 'money object', description: `${field}: a money object (older versions: a decimal number in the major unit)` }));
    case 'endpoint_added':
      return [{ field: null, in: null, from: null, to: `${op?.method} ${op?.path}`, description: 'endpoint added' }];
    case 'endpoint_moved':
      return [{ field: null, in: null, from: b.from, to: op?.path, description: `moved from ${b.from} to ${op?.path}` }];
    case 'endpoint_gone':
      return [{ field: null, in: null, from: `${op?.method} ${op?.path}`, to: '410 gone', description: 'retired: answers 410 gone' }];
    case 'field_hidden':
      return [{ field: b.field, in: 'response', from: 'shown', to: null, description: `${b.field}: no longer shown` }];
    case 'list_field_removed':
      return [{ field: b.field, in: 'response', from: 'in every page', to: null, description: `pages: ${b.field} no longer carried` }];
    case 'status_changed':
      return [{ field: null, in: null, from: b.was, to: op?.response.status, description: `success status ${b.was} -> ${op?.response.status}` }];
    case 'epoch_timestamps_accepted':
      return [{ field: null, in: null, from: 'ISO 8601 or epoch seconds', to: 'ISO 8601',
        description: 'timestamp inputs: ISO 8601 only (epoch seconds no longer accepted)' }];
    case 'request_field_rejected':
      return [{ field: b.field, in: input, from: 'accepted', to: 'refused', description: `${input} ${b.field}: no longer accepted` }];
    case 'request_field_added':
      return [{ field: b.field, in: input, from: null, to: 'accepted', description: `${input} ${b.field}: newly accepted` }];
    case 'request_field_renamed':
      return [{ field: b.to, in: input, from: b.from, to: b.to, description: `${input} ${b.from}: renamed to ${b.to}` }];
    case 'request_field_required':
      return [{ field: b.field, in: 'body', from: 'optional', to: 'required',
        description: `body ${b.field}: now required (older versions defaulted it to ${JSON.stringify(b.default)})` }];
    case 'request_values_renamed': {
      const renamed = Object.entries(b.map).map(([o, n]) => `${o} -> ${[n].flat().join('|') || '(nothing)'}`).join(', ');
      const wasValues = b.was && typeof b.was === 'object' && b.was.values ? [...b.was.values, ...(b.was.nullable ? [null] : [])] : null;
      const was = wasValues ? `older values ${wasValues.map((v) => v ?? 'null').join(', ')}` : '';
      return [{ field: b.field, in: input, from: wasValues ?? olderValues(b), to: newerValues(b),
        description: `${input} ${b.field}: ${[renamed && `values renamed (${renamed})`, was].filter(Boolean).join('; ')}` }];
    }
    case 'request_transformer': {
      const fields = Object.entries(b.was ?? {}).flatMap(([part, f]) => Object.keys(f as object).map((k) => `${part} ${k}`));
      return [{ field: null, in: 'body', from: b.was ?? null, to: null,
        description: `${b.description}${fields.length ? ` (older inputs: ${fields.join(', ')})` : ''}` }];
    }
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

function resolve(spec: ApiSpec, date: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(date);
  const v = m && spec.versions.find((x) => x.date <= m[1]);
  if (!v) throw new Error(`${date} is not a date on or after the first version, ${spec.versions[spec.versions.length - 1].date}`);
  return v.date;
}

/** Breaking before additive, then by version. */
const byImportance = (a: Change, b: Change) => Number(b.breaking) - Number(a.breaking) || a.ref.localeCompare(b.ref);

export function diffVersions(spec: ApiSpec, fromDate: string, toDate: string, options: { breakingOnly?: boolean } = {}): Diff {
  let from = resolve(spec, fromDate);
  let to = resolve(spec, toDate);
  const swapped = from > to;
  if (swapped) [from, to] = [to, from];
  const crossed = spec.versions.filter((v) => v.date > from && v.date <= to).reverse();
  const diff: Diff = {
    from, to, swapped, versionsCrossed: crossed.map((v) => v.date),
    summary: { breaking: 0, additive: 0, operations: 0, resources: 0, migrations: 0, pendingInRange: 0,
      pendingTotal: spec.versions.flatMap((v) => v.changes).filter((c) => c.pending).length },
    changelog: {}, operations: {}, resources: {}, behaviour: [], migrations: [], pending: [],
  };
  const count = (c: Change) => { if (c.breaking) diff.summary.breaking++; else diff.summary.additive++; };
  const keep = (c: Change) => !options.breakingOnly || c.breaking;
  const touched = { operations: new Set<string>(), resources: new Set<string>() };
  // An operation retired within the range answers 410 at its end: its other changes there are moot.
  const retired = new Set(crossed.flatMap((v) => v.changes.filter((c) => !c.pending))
    .flatMap((c) => (c.instructions ?? []) as Instruction[]).flatMap((i) => (i.endpoint_gone ? [i.endpoint_gone.operation] : [])));
  for (const version of crossed) {
    version.changes.forEach((change, index) => {
      const entry = change.entry ?? null;
      const ref = `${version.date}#${entry ?? `(${index + 1})`}`;
      diff.changelog[ref] = { version: version.date, entry, text: change.description, migration: change.migration ?? null };
      if (change.migration) diff.migrations.push({ name: change.migration, version: version.date, ref });
      for (const flag of change.flags ?? []) {
        const c: Change = { kind: 'behaviour', field: null, in: null, from: null, to: flag, breaking: true,
          description: `${flag}: ${spec.version_flags[flag]?.description ?? ''}`, ref };
        count(c);
        if (keep(c)) diff.behaviour.push(c);
      }
      if (change.pending) {
        diff.pending.push({ ref, version: version.date, entry, text: change.description });
        return;
      }
      for (const i of (change.instructions ?? []) as Instruction[]) {
        const kind = kindOf(i);
        const body = (i as Record<string, Body>)[kind];
        const op = body.operation ? spec.operations.find((o) => o.id === body.operation) : undefined;
        if (kind !== 'endpoint_gone' && retired.has(body.operation)) continue;
        for (const shape of shapesOf(i, op)) {
          const c: Change = { kind, ...shape, breaking: BREAKING[kind], ref };
          count(c);
          if (body.schema) touched.resources.add(body.schema);
          else touched.operations.add(body.operation);
          if (!keep(c)) continue;
          if (body.schema) (diff.resources[body.schema] ??= { usedBy: operationsUsing(spec, body.schema), changes: [] }).changes.push(c);
          else (diff.operations[body.operation] ??= { route: `${op!.method} ${op!.path}`, changes: [] }).changes.push(c);
        }
      }
    });
  }
  for (const group of [...Object.values(diff.operations), ...Object.values(diff.resources)]) group.changes.sort(byImportance);
  diff.summary.operations = touched.operations.size;
  diff.summary.resources = touched.resources.size;
  diff.summary.migrations = diff.migrations.length;
  diff.summary.pendingInRange = diff.pending.length;
  return diff;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Groups with breaking changes first, then by name. */
function ordered<G extends { changes: ChangeData[] }>(groups: Record<string, G>): [string, G][] {
  const breaks = (g: G) => g.changes.some((c) => c.breaking);
  return Object.entries(groups).sort(([a, g], [b, h]) => Number(breaks(h)) - Number(breaks(g)) || a.localeCompare(b));
}

export function formatDiff(d: DiffData, options: { breakingOnly?: boolean } = {}): string {
  const s = d.summary;
  const lines = [`Changes from ${d.from} to ${d.to} (${plural(d.versionsCrossed.length, 'version')} crossed${d.versionsCrossed.length ? `: ${d.versionsCrossed.join(', ')}` : ''})`];
  if (d.swapped) lines.push(`(The later date came first; the dates were swapped: moving a pin from ${d.from} to ${d.to}.)`);
  lines.push('', `Summary: ${plural(s.breaking, 'breaking change')} and ${plural(s.additive, 'addition')} in `
    + `${plural(s.operations, 'operation')} and ${plural(s.resources, 'resource')}; ${plural(s.migrations, 'migration')} crossed; `
    + `${s.pendingInRange} pending in this range (${s.pendingTotal} in the whole changelog).`);
  if (options.breakingOnly) lines.push('Showing breaking changes only.');
  if (d.migrations.length) {
    lines.push('', 'Migrations crossed (move these together):');
    for (const m of d.migrations) lines.push(`  ${m.name} (${m.ref})`);
  }
  const shown = new Set([...Object.values(d.operations), ...Object.values(d.resources), { changes: d.behaviour }]
    .flatMap((g) => g.changes.map((c) => c.ref)));
  if (shown.size) {
    lines.push('', 'Changelog entries:');
    for (const [ref, e] of Object.entries(d.changelog)) if (shown.has(ref)) lines.push(`  ${ref}  ${e.text}`);
  }
  const line = (c: ChangeData) => `    ${c.breaking ? 'breaking' : 'additive'}  ${c.description}  [${c.ref}]`;
  for (const [name, g] of ordered(d.operations)) lines.push('', `Operation ${name} (${g.route})`, ...g.changes.map(line));
  for (const [name, g] of ordered(d.resources)) {
    lines.push('', `Resource ${name}${g.usedBy.length ? ` (in ${g.usedBy.join(', ')})` : ''}`, ...g.changes.map(line));
  }
  if (d.behaviour.length) lines.push('', 'Behaviour (same shapes, different effects; handlers read these flags)', ...d.behaviour.map(line));
  if (d.pending.length) {
    lines.push('', 'Pending in this range (recorded; their resources are not built yet):');
    for (const p of d.pending) lines.push(`  ${p.ref}  ${p.text}`);
  }
  return lines.join('\n');
}

/** `npm run diff -- <from> <to>` (bin/diff.ts, which also dispatches `--key` to the upgrade assistant). */
export function main() {
  const flags = new Set(['--json', '--breaking']);
  const args = process.argv.slice(2).filter((a) => !flags.has(a));
  if (args.length !== 2) {
    console.error('usage: npm run diff -- <from-version-date> <to-version-date> [--breaking] [--json]');
    process.exit(2);
  }
  const breakingOnly = process.argv.includes('--breaking');
  // Piped into `head`: stop quietly once the reader has gone.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const { spec } = loadSpec(root);
    const d = diffVersions(spec, args[0], args[1], { breakingOnly });
    console.log(process.argv.includes('--json') ? JSON.stringify(d, null, 2) : formatDiff(d, { breakingOnly }));
  } catch (e) {
    if (e instanceof SpecError) console.error(e.problems.join('\n'));
    else console.error((e as Error).message);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
