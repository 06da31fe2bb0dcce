// <spec>/versions/: the dated versions, one folder each (versions/2026-08-21/), newest first by date. A folder's
// version.yaml gives its description, the behaviour flags it introduced and its changes by name, newest first; each
// change is a named unit beside it, <name>.yaml (its changelog text and instructions), with its hand-written
// converter, when it has one, in <name>.ts (or the file its instruction names in `converter`).
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CHANGE_NAME } from './meta-schema.js';
import { locate, type SourceFile } from './spec-source.js';
import type { ApiSpec, ChangeSpec, VersionSpec } from './spec-types.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads and validates one YAML file against its meta-schema; undefined (and a problem recorded) when it cannot. */
export type ReadSpecFile = (file: string, kind: 'version' | 'change') => SourceFile | undefined;

export interface LoadedVersions {
  versions: VersionSpec[];
  version_flags: ApiSpec['version_flags'];
}

export function loadVersions(root: string, specDir: string, read: ReadSpecFile, problems: string[]): LoadedVersions {
  const dir = join(specDir, 'versions');
  const shown = (file: string) => relative(root, file);
  if (existsSync(join(specDir, 'versions.yaml'))) {
    problems.push(`${shown(join(specDir, 'versions.yaml'))}: the versions are folders now, ${shown(dir)}/<date>/ (a version.yaml and one <name>.yaml per change)`);
  }
  if (!existsSync(dir)) {
    problems.push(`${shown(dir)}: missing; the spec needs a folder per dated version`);
    return { versions: [], version_flags: {} };
  }
  const folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const name of folders.filter((f) => !DATE.test(f))) problems.push(`${shown(join(dir, name))}: a version folder is named by its date, YYYY-MM-DD`);
  const versions: VersionSpec[] = [];
  const version_flags: ApiSpec['version_flags'] = {};
  const named = new Map<string, string>(); // change name -> its file
  for (const date of folders.filter((f) => DATE.test(f)).sort().reverse()) {
    const folder = join(dir, date);
    const problemsBefore = problems.length;
    const index = read(join(folder, 'version.yaml'), 'version');
    // An index its meta-schema refused (reported) names no changes to read.
    if (!index || problems.length > problemsBefore) continue;
    const data = index.data as { description: string; flags?: Record<string, { description: string }>; changes: string[] };
    for (const [flag, declared] of Object.entries(data.flags ?? {})) {
      if (version_flags[flag]) problems.push(`${locate(index, ['flags', flag], true)}: the flag ${flag} is declared twice; it is also declared since ${version_flags[flag].since}`);
      else version_flags[flag] = { description: declared.description, since: date };
    }
    const files = readdirSync(folder).filter((f) => f.endsWith('.yaml') && f !== 'version.yaml').map((f) => f.slice(0, -'.yaml'.length));
    for (const unlisted of files.filter((f) => !data.changes.includes(f))) {
      problems.push(`${shown(join(folder, `${unlisted}.yaml`))}: not listed under changes in ${index.path}; list it where it belongs (newest first)`);
    }
    const changes: ChangeSpec[] = [];
    data.changes.forEach((name, i) => {
      const file = join(folder, `${name}.yaml`);
      if (!files.includes(name)) {
        problems.push(`${locate(index, ['changes', i])}: lists the change ${name}, which has no file ${shown(file)}`);
        return;
      }
      if (named.has(name)) {
        problems.push(`${shown(file)}: the change name ${name} is taken by ${named.get(name)}; a change's name is unique across versions`);
        return;
      }
      named.set(name, shown(file));
      const change = loadChange(root, specDir, folder, name, read, problems);
      if (change) changes.push(change);
    });
    versions.push({ date, description: data.description, changes });
  }
  // The changelog numbers the changes by position, newest first.
  let entry = 0;
  for (const v of versions) for (const c of v.changes) c.entry = ++entry;
  return { versions, version_flags };
}

function loadChange(root: string, specDir: string, folder: string, name: string, read: ReadSpecFile, problems: string[]): ChangeSpec | undefined {
  if (!new RegExp(CHANGE_NAME).test(name)) {
    problems.push(`${relative(root, join(folder, `${name}.yaml`))}: a change is named in kebab-case (payouts-status-v2)`);
    return undefined;
  }
  const problemsBefore = problems.length;
  const source = read(join(folder, `${name}.yaml`), 'change');
  if (!source || problems.length > problemsBefore) return undefined;
  const data = source.data as Omit<ChangeSpec, 'name' | 'file'>;
  const instructions = (data.instructions ?? []).map((raw, i) => {
    const kind = Object.keys(raw)[0];
    if (kind !== 'transformer' && kind !== 'request_transformer') return raw;
    const body = raw[kind] as { converter?: string };
    const stem = body.converter ?? name;
    const file = join(folder, `${stem}.ts`);
    if (!existsSync(file)) {
      problems.push(`${locate(source, ['instructions', i, kind])}: ${kind} needs its converter ${relative(root, file)} (exporting ${kind === 'transformer' ? 'down(object)' : 'up(input)'})`);
    }
    return { [kind]: { ...body, module: relative(specDir, join(folder, stem)).split(sep).join('/') } };
  });
  return {
    ...data,
    ...(data.instructions ? { instructions } : {}),
    name,
    file: source.path,
    instructionsAt: (data.instructions ?? []).map((_, i) => locate(source, ['instructions', i])),
  };
}
