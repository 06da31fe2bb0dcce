// What a key pinned at one version crosses to reach another, from generated/changelog.json: the union of the steps
// between them, grouped as `npm run diff` groups them (generator/diff.ts; a test holds the two equal for every pair).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, whenInstalled } from '../api-definition.js';
// The file's shape is defined here in runtime/ and written by the generator: the runtime imports nothing from generator/.
import type { Change, ChangelogData, Diff } from './changelog-data.js';

export type { Change, Diff, ChangelogData };

let loaded: ChangelogData | null = null;
whenInstalled(() => {
  loaded = null;
});

/** The installed API's changelog.json, read once. */
export function changelog(): ChangelogData {
  loaded ??= JSON.parse(readFileSync(join(api().documentsDir, 'changelog.json'), 'utf8')) as ChangelogData;
  return loaded;
}

/** The version in force on a date (YYYY-MM-DD...), or null before the first. */
export function versionOn(data: ChangelogData, date: string): string | null {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(date)?.[0];
  return (day && data.versions.find((v) => v.date <= day)?.date) || null;
}

const byImportance = (a: Change, b: Change) => Number(b.breaking) - Number(a.breaking) || a.ref.localeCompare(b.ref);

/** The diff from `fromDate` to `toDate` (swapped when given newest first), as diffVersions would compute it. */
export function crossing(data: ChangelogData, fromDate: string, toDate: string): Diff {
  let from = versionOn(data, fromDate);
  let to = versionOn(data, toDate);
  if (!from || !to) throw new RangeError(`not a date on or after the first version: ${!from ? fromDate : toDate}`);
  const swapped = from > to;
  if (swapped) [from, to] = [to, from];
  const crossed = data.versions.filter((v) => v.date > from! && v.date <= to!).reverse().map((v) => v.date);
  const pendingTotal = data.versions.flatMap((v) => v.entries).filter((e) => e.pending).length;
  const diff: Diff = {
    from, to, swapped, versionsCrossed: crossed,
    summary: { breaking: 0, additive: 0, operations: 0, resources: 0, migrations: 0, pendingInRange: 0, pendingTotal },
    changelog: {}, operations: {}, resources: {}, behaviour: [], migrations: [], pending: [],
  };
  for (const date of crossed) {
    const step = data.steps[date];
    diff.summary.breaking += step.summary.breaking;
    diff.summary.additive += step.summary.additive;
    Object.assign(diff.changelog, step.changelog);
    for (const [name, g] of Object.entries(step.operations)) (diff.operations[name] ??= { route: g.route, changes: [] }).changes.push(...g.changes);
    for (const [name, g] of Object.entries(step.resources)) (diff.resources[name] ??= { usedBy: g.usedBy, changes: [] }).changes.push(...g.changes);
    diff.behaviour.push(...step.behaviour);
    diff.migrations.push(...step.migrations);
    diff.pending.push(...step.pending);
  }
  for (const g of [...Object.values(diff.operations), ...Object.values(diff.resources)]) g.changes.sort(byImportance);
  diff.summary.operations = Object.keys(diff.operations).length;
  diff.summary.resources = Object.keys(diff.resources).length;
  diff.summary.migrations = diff.migrations.length;
  diff.summary.pendingInRange = diff.pending.length;
  return diff;
}
