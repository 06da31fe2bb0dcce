// The benchmark's servers and workers run compiled, as `npm start` runs the server (bin/build.mjs): under tsx every
// function the code creates pays for esbuild's keep-names helper, and the loader thread takes CPU of its own, which
// `npm start` does not. Built once per run into .data/bench-build/, with the options the server's own build uses.
import { build } from 'esbuild';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { bundleOptions } from '../bin/build.mjs';
import { projectRoot } from '../runtime/project-root.js';

const OUT = join(projectRoot, '.data', 'bench-build');

/** Compiles these bench/ entries (e.g. 'framework-server.ts') into .data/bench-build/<dir>/; answers each one's
 * JavaScript file by entry. */
export async function compileBenchEntries(dir: string, entries: string[], readableProfiles = false): Promise<Map<string, string>> {
  const out = join(OUT, dir);
  rmSync(out, { recursive: true, force: true });
  // With CPU profiles on, names and lines are kept (syntax is still minified) so that the profiles read.
  await build({ ...bundleOptions(entries.map((e) => `bench/${e}`), out), ...(readableProfiles ? { minify: false, minifySyntax: true } : {}) });
  return new Map(entries.map((e) => [e, join(out, 'bench', e.replace(/\.ts$/, '.js'))]));
}
