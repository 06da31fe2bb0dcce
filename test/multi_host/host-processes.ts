// What each host runs, started inside its namespace (`ip netns exec`) from the compiled server in dist/, as
// `npm start` and `npm run worker` run it (bin/launch.mjs), with only the settings the deployment page names
// (docs/deployment.md): nothing of the test process's environment leaks in, as nothing would on another machine.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, distIsStale, root } from '../../bin/dist-sources.mjs';
import { until } from '../helpers/poll.js';
import { processAlive, type Host } from './network.js';

/** What this run's temporary directories are named after: a crashed run's are found by their dead pid. */
const TEMPORARY = /^multi-host-(\d+)-/;
export const temporaryPrefix = () => `multi-host-${process.pid}-`;

/**
 * The hosts' installation: dist/ (built first when older than the sources, as `npm start` would) copied as hard links
 * into a directory of this run's, beside links to the checkout's other top-level entries (package.json, node_modules,
 * generated/, docs/...). Each machine has its own installation; here it also keeps the hosts' code still while
 * another test rebuilds the checkout's dist/ (test/ops/compiled-start.test.ts makes it stale on purpose). The code
 * finds its root by walking up to package.json (runtime/project-root.ts), so it runs from there unchanged.
 */
export async function installHostCode(): Promise<{ dir: string; remove(): void }> {
  for (const name of readdirSync(tmpdir())) {
    const owner = Number(TEMPORARY.exec(name)?.[1]);
    if (owner && owner !== process.pid && !processAlive(owner)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const dir = join(tmpdir(), `${temporaryPrefix()}install`);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  for (let attempt = 1; ; attempt++) {
    remove();
    mkdirSync(dir);
    try {
      if (distIsStale()) {
        const { buildDist } = await import('../../bin/build.mjs');
        await buildDist();
      }
      // Hard links: a file bin/build.mjs replaces in dist/ stays here as it was (its cache is written aside and renamed).
      execFileSync('cp', ['-al', DIST, join(dir, 'dist')], { stdio: 'ignore' });
      for (const entry of readdirSync(root)) if (!entry.startsWith('.') && entry !== 'dist') symlinkSync(join(root, entry), join(dir, entry));
      if (!existsSync(join(dir, 'dist', 'bin', 'start.js'))) throw new Error('dist/bin/start.js missing from the copy');
      return { dir, remove };
    } catch (e) {
      // Another process swapped dist/ in meanwhile (bin/build.mjs renames it): build or copy again.
      if (attempt === 3) throw e;
    }
  }
}

export interface HostProcess {
  host: Host;
  child: ChildProcess;
  /** the process's last output lines, to say why it failed */
  output(): string;
}

const LAST_LINES = 40;

function startInNamespace(host: Host, install: string, entry: string, env: Record<string, string>): HostProcess {
  const child = spawn('ip', ['netns', 'exec', host.namespace, process.execPath, join(install, 'dist', 'bin', entry)], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - LAST_LINES));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { host, child, output: () => `${host.name} (${entry}):\n    ${lines.join('\n    ')}` };
}

/** Waits for `ready`, or fails with the process's last output if it exits first or takes too long. */
async function awaitStart(p: HostProcess, what: string, ready: () => Promise<boolean> | boolean): Promise<void> {
  let exited: number | null | undefined;
  p.child.once('exit', (code) => { exited = code; });
  try {
    await until(async () => {
      if (exited !== undefined) throw new Error(`${what} exited (code ${exited}) first`);
      return ready();
    }, what, { timeoutMs: 45_000, everyMs: 100 });
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${p.output()}`);
  }
}

/** `npm start` on the host: its API processes listen on the host's address; resolved once GET /ready finds the
 * database reachable and migrated (its `worker` check waits for a worker host: docs/operations.md). */
export async function startApiHost(host: Host, install: string, env: Record<string, string>, port: number): Promise<HostProcess & { origin: string }> {
  const p = startInNamespace(host, install, 'start.js', { ...env, HOST: host.address, PORT: String(port) });
  const origin = `http://${host.address}:${port}`;
  await awaitStart(p, `the API host ${host.name} to be ready at ${origin}`, async () => {
    const res = await fetch(`${origin}/ready`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    const body = res ? await res.json().catch(() => null) : null;
    return body?.checks?.database === 'ok' && body?.checks?.migrations === 'ok';
  });
  return { ...p, origin };
}

/** `npm run worker` on the host: resolved once it says its worker runs. */
export async function startWorkerHost(host: Host, install: string, env: Record<string, string>): Promise<HostProcess> {
  const p = startInNamespace(host, install, 'worker.js', env);
  let ready = false;
  p.child.stdout!.on('data', (chunk: Buffer) => { if (/Background worker \S+ running/.test(chunk.toString())) ready = true; });
  await awaitStart(p, `the worker host ${host.name} to run its worker`, () => ready);
  return p;
}
