// generated/changelog.json: what /docs/changelog shows. Every version with its changelog entries (breaking ones
// marked, migrations and behaviour flags named), and each version's step from the one before it as the diff tool
// computes it (generator/diff.ts). What a pin crosses between any two versions is the union of the steps between
// them (runtime/docs/changelog.ts), so only the steps are stored: a few dozen kilobytes, not every pair.
import { diffVersions } from './diff.js';
import type { ApiSpec } from './spec-types.js';
// The file's shape is the runtime's, which reads it (runtime/docs/changelog-data.ts).
import type { ChangelogData } from '../runtime/docs/changelog-data.js';

export function changelogData(spec: ApiSpec): ChangelogData {
  const steps: ChangelogData['steps'] = {};
  spec.versions.forEach((v, i) => {
    const older = spec.versions[i + 1];
    if (older) steps[v.date] = diffVersions(spec, older.date, v.date);
  });
  const versions = spec.versions.map((v) => {
    const step = steps[v.date];
    const changes = step ? [...Object.values(step.operations), ...Object.values(step.resources)].flatMap((g) => g.changes).concat(step.behaviour) : [];
    return {
      date: v.date,
      description: v.description,
      entries: v.changes.map((c, index) => {
        const ref = `${v.date}#${c.entry ?? `(${index + 1})`}`;
        return {
          ref, entry: c.entry ?? null, text: c.description, migration: c.migration ?? null, pending: !!c.pending,
          flags: c.flags ?? [], breaking: changes.some((x) => x.ref === ref && x.breaking),
        };
      }),
    };
  });
  return { versions, steps };
}

export function emitChangelog(spec: ApiSpec): string {
  return `${JSON.stringify(changelogData(spec))}\n`;
}
