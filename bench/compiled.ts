// The benchmark's servers and workers run compiled, as `npm start` runs the server (bin/build.mjs): under tsx every
// function the code creates pays for esbuild's keep-names helper, and the loader thread takes CPU of its own, which
// `npm start` does not. Built once per run into .data/bench-build/, with the options the server's own build uses.
// An entry named in `codeCached` runs as `npm start` runs its API processes: one CommonJS bundle compiled from V8's
// code cache (bin/code-cache.cjs), the cache written by a first run (primeCodeCache) before any is measured. Run
// from a parse of the whole bundle instead, the process keeps ~20 MB more: the parser's memory, freed after the
// parse, stays with glibc's heap, held in place by what was allocated beside it.
import { build } from 'esbuild';
import { fork } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleOptions, codeCacheRunner, commonJsOptions } from '../bin/build.mjs';
import { projectRoot } from '../runtime/project-root.js';

const OUT = join(projectRoot, '.data', 'bench-build');

/** Compiles these bench/ entries (e.g. 'framework-server.ts') into .data/bench-build/<dir>/; answers each one's
 * JavaScript file by entry (for a code-cached one, the CommonJS runner of its bundle). */
export async function compileBenchEntries(dir: string, entries: string[], readableProfiles = false,
  codeCached: readonly string[] = []): Promise<Map<string, string>> {
  const out = join(OUT, dir);
  rmSync(out, { recursive: true, force: true });
  // With CPU profiles on, names and lines are kept (syntax is still minified) so that the profiles read.
  const readable = readableProfiles ? { minify: false, minifySyntax: true } : {};
  const plain = entries.filter((e) => !codeCached.includes(e));
  if (plain.length) await build({ ...bundleOptions(plain.map((e) => `bench/${e}`), out), ...readable });
  const files = new Map(plain.map((e) => [e, join(out, 'bench', e.replace(/\.ts$/, '.js'))]));
  for (const entry of entries.filter((e) => codeCached.includes(e))) {
    await build({ ...commonJsOptions(`bench/${entry}`, out), ...readable });
    const name = entry.replace(/\.ts$/, '');
    const runner = join(out, 'bench', `${name}.cjs`);
    writeFileSync(runner, codeCacheRunner(relative(join(out, 'bench'), join(projectRoot, 'bin', 'code-cache.cjs')), join(out, 'bench', `${name}.bundle.cjs`)));
    files.set(entry, runner);
  }
  return files;
}

/** Runs a code-cached entry once, until it says it is ready (its first IPC message), so that the cache exists; with
 * the node flags the measured runs will have (V8 rejects a cache made under other flags). */
export async function primeCodeCache(runner: string, env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<void> {
  const cache = runner.replace(/\.cjs$/, '.bundle.cjs.v8cache');
  if (!runner.endsWith('.cjs') || existsSync(cache)) return;
  const child = fork(runner, [], { env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${runner} exited (code ${code}) before it was ready`)));
    child.once('message', () => resolve());
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
  if (!existsSync(cache)) throw new Error(`${runner} wrote no code cache (${cache})`);
}
