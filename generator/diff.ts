// `npm run diff -- --key <id> [--target <date>]` is the upgrade assistant for one API key: bin/diff.ts sends it to
// bin/upgrade-assistant-cli.ts (the generator imports nothing from bin/; .dependency-cruiser.cjs).
// `npm run diff -- <operation> [--breaking] [--json]`: every change of one operation (id, `METHOD /path` or summary),
// request and response side, by the change's name (./operation-changes.ts).
// `npm run diff -- <from> <to> [--breaking] [--json]`: what an integrator crosses when moving a pin between two
// versions. It opens with a summary, groups changes by operation and resource (those with breaking changes first,
// breaking changes first within each), states each changelog entry's text once, and says what hand-written
// transformers change in the words they declare. `--json` gives the same as structured change objects.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from './load-spec.js';
import { SpecError } from './spec-source.js';
import { kindOf, type Instruction, type InstructionKind } from './instructions.js';
import { BREAKING, operationsUsing, shapesOf } from './change-shapes.js';
import { changesByOperation, findOperation, formatOperationChanges } from './operation-changes.js';
import type { ApiSpec } from './spec-types.js';
import type { Change as ChangeData, Diff as DiffData } from '../runtime/docs/changelog-data.js';

/** One change, its kind narrowed to the spec's instruction kinds; the shapes are the runtime's
 * (runtime/docs/changelog-data.ts), which reads what the generator writes. */
export type Change = ChangeData<InstructionKind | 'behaviour'>;
export type Diff = DiffData<InstructionKind | 'behaviour'>;

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
        const body = (i as Record<string, Record<string, any>>)[kind];
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

/** `npm run diff -- <from> <to>` or `-- <operation>` (bin/diff.ts, which also dispatches `--key` to the upgrade
 * assistant). */
export function main() {
  const flags = new Set(['--json', '--breaking']);
  const args = process.argv.slice(2).filter((a) => !flags.has(a));
  if (args.length !== 1 && args.length !== 2) {
    console.error('usage: npm run diff -- <from-version-date> <to-version-date> [--breaking] [--json]\n'
      + '       npm run diff -- <operation id, "METHOD /path" or summary> [--breaking] [--json]');
    process.exit(2);
  }
  const breakingOnly = process.argv.includes('--breaking');
  // Piped into `head`: stop quietly once the reader has gone.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const { spec } = loadSpec(root);
    if (args.length === 1) {
      const op = findOperation(spec, args[0]);
      const changes = (changesByOperation(spec)[op.id] ?? []).filter((c) => !breakingOnly || c.breaking);
      console.log(process.argv.includes('--json') ? JSON.stringify({ operation: op.id, changes }, null, 2) : formatOperationChanges(spec, op, changes));
      return;
    }
    const d = diffVersions(spec, args[0], args[1], { breakingOnly });
    console.log(process.argv.includes('--json') ? JSON.stringify(d, null, 2) : formatDiff(d, { breakingOnly }));
  } catch (e) {
    if (e instanceof SpecError) console.error(e.problems.join('\n'));
    else console.error((e as Error).message);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
