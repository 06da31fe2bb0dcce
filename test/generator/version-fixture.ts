// A newest dated version in a project copy, for the generator's tests: spec/versions/<date>/ with its version.yaml
// and one <name>.yaml per change (generator/load-versions.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes spec/versions/<date>/: the changes by name, newest first, each the text of its unit file. */
export function addVersion(root: string, date: string, changes: Record<string, string>, description = 'A fixture version.'): void {
  const dir = join(root, 'spec/versions', date);
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(changes);
  writeFileSync(join(dir, 'version.yaml'), `description: ${description}\n${names.length ? `changes:\n${names.map((n) => `  - ${n}\n`).join('')}` : 'changes: []\n'}`);
  for (const [name, text] of Object.entries(changes)) writeFileSync(join(dir, `${name}.yaml`), text);
}

/** Changes written as YAML list items indented under a version (`      - description: ...`), as units named change-1,
 * change-2, ... in order. */
export function unitsFromListItems(items: string): Record<string, string> {
  const units: string[][] = [];
  for (const line of items.split('\n')) {
    if (line.startsWith('      - ')) units.push([]);
    if (line.trim()) units[units.length - 1].push(line.slice(8));
  }
  return Object.fromEntries(units.map((lines, i) => [`change-${i + 1}`, `${lines.join('\n')}\n`]));
}
