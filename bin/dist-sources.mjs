// Whether dist/ (bin/build.mjs) was built from the sources as they are now: a fingerprint of every source file's
// path, size and modification time (stat calls only, a few milliseconds), compared with the one stored at build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(root, 'dist');
export const STAMP_FILE = 'sources.json';
/** what the bundle is built from: a change to any of these makes it stale */
const SOURCES = ['bin', 'runtime', 'handlers', 'sandbox', 'wiring', 'generated', 'migrations', 'spec/versions', 'package-lock.json'];

/** Every source file's path, one directory listing per tree (with file types: no stat call for a directory). */
function sourceFiles() {
  const files = [];
  for (const source of SOURCES) {
    const path = join(root, source);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) files.push(path);
    else for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) if (!entry.isDirectory()) files.push(`${entry.parentPath}/${entry.name}`);
  }
  return files;
}

/** @param {string[]} files @param {{ size: number, mtimeMs: number }[]} infos */
const fingerprintOf = (files, infos) => files.map((path, i) => `${path.slice(root.length + 1)} ${infos[i].size} ${infos[i].mtimeMs}`).sort().join('\n');

export function sourcesFingerprint() {
  const files = sourceFiles();
  return fingerprintOf(files, files.map((path) => statSync(path)));
}

/** @returns {string | null} the fingerprint dist/ was built from (null: none built) */
function builtFingerprint() {
  try {
    return readFileSync(join(DIST, STAMP_FILE), 'utf8');
  } catch {
    return null;
  }
}

export function distIsStale() {
  return builtFingerprint() !== sourcesFingerprint();
}
