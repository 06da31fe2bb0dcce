// The start-up scenario: launch to the first 200 of GET /accounts/{id} on a migrated database, for
// `npm start` itself (the npm CLI, bin/launch.mjs, the compiled primary and its API process), for the compiled
// server without the npm CLI, for its API process started by itself, and for the expert's hand-written Fastify
// server (bench/expert-server.ts bundled the same way), in alternating order, median of BENCH_START_RUNS (5). dist/ is built before timing: a first start after
// an edit also builds it (about a second), which is not what this measures. bench/run.ts runs it before any other
// server, and it waits until PostgreSQL has no other work in progress: a start measures the start, not a neighbour.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Knex } from 'knex';
import { projectRoot } from '../runtime/project-root.js';
import { freePort } from '../test/helpers/processes.js';
import type { BenchRequest } from './scenarios.js';
// Plain JavaScript: `npm start` runs it before anything is compiled.
import { buildDist } from '../bin/build.mjs';
import { DIST, distIsStale } from '../bin/dist-sources.mjs';
import { API_PROCESS_NODE_FLAGS } from '../bin/api-cluster.mjs';
import { waitForQuietDatabase } from './postgres-cpu.js';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
/** the bound on `npm start` to the first 200 on a migrated database */
export const START_TARGET_MS = 1000;

/** A side answers GET /accounts/{id} (timed to its first 200), or only runs to its exit (timed to that). */
interface Side { label: string; command: string[]; ipc: boolean; cwd?: string; untilExit?: boolean }

/** `npm start` of a package whose start script is `node -e 0`: what the npm CLI and one Node start cost by themselves,
 * the floor under `npm start` of any server. */
const NPM_FLOOR = 'npm start of node -e 0';

export async function measureStartUp(db: Knex, databaseUrl: string, request: BenchRequest): Promise<string> {
  if (distIsStale()) await buildDist();
  const quiet = await waitForQuietDatabase(db);
  console.log(`  PostgreSQL ${quiet.ms === 0 ? 'was quiet' : `quiet after ${(quiet.ms / 1000).toFixed(1)} s`}${quiet.timedOut ? ' (gave up waiting: measured beside its work)' : ''}`);
  const expert = join(projectRoot, '.data', 'bench-start', 'expert-server.js');
  await build({ entryPoints: [join(projectRoot, 'bench', 'expert-server.ts')], outfile: expert, bundle: true, format: 'esm',
    platform: 'node', target: 'node20', packages: 'external', minify: true, logLevel: 'warning' });
  const floorDir = join(projectRoot, '.data', 'bench-start', 'npm-floor');
  mkdirSync(floorDir, { recursive: true });
  writeFileSync(join(floorDir, 'package.json'), JSON.stringify({ name: 'npm-floor', private: true, scripts: { start: 'node -e 0' } }));
  const sides: Side[] = [
    { label: 'npm start', command: ['npm', 'start'], ipc: false },
    { label: NPM_FLOOR, command: ['npm', 'start', '--silent'], ipc: false, cwd: floorDir, untilExit: true },
    { label: 'node bin/launch.mjs', command: [process.execPath, join(projectRoot, 'bin', 'launch.mjs'), 'start'], ipc: false },
    // The process that answers under `npm start`, started by itself (it then serves DATABASE_URL, as migrated): Node's
    // start and the framework's code, without the npm CLI, the launcher's own Node start and the primary's checks.
    { label: 'API process alone', command: [process.execPath, ...API_PROCESS_NODE_FLAGS, join(DIST, 'bin', 'api-process.cjs')], ipc: false },
    { label: 'expert (Fastify)', command: [process.execPath, expert], ipc: true },
  ];
  const times = new Map<string, number[]>(sides.map((s) => [s.label, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const side of run % 2 ? [...sides].reverse() : sides) times.get(side.label)!.push(await timeToFirst200(side, databaseUrl, request));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lines = sides.map((s) => `${s.label} ${Math.round(median(times.get(s.label)!))} ms (${times.get(s.label)!.map(Math.round).join(', ')})`);
  for (const line of lines) console.log(`  ${line}`);
  const npmStart = median(times.get('npm start')!);
  const expertMs = median(times.get('expert (Fastify)')!);
  const against = (label: string) => `${label}/expert ${(median(times.get(label)!) / expertMs).toFixed(2)}`;
  return `start-up to the first 200, median of ${RUNS}: ${lines.join('; ')}; npm start ${npmStart <= START_TARGET_MS ? 'meets' : 'misses'} `
    + `the target of ${START_TARGET_MS} ms; ${['npm start', 'node bin/launch.mjs', 'API process alone', NPM_FLOOR].map(against).join(', ')} (target <= 1.2; `
    + `the last is the npm CLI's own floor, under any server's npm start)`;
}

async function timeToFirst200(side: Side, databaseUrl: string, request: BenchRequest): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so that stopping it stops npm's children too. The expert needs an IPC channel (it
  // reports its URL to bench/run.ts that way); an API process given one would wait for a primary to name its database.
  const child = spawn(side.command[0], side.command.slice(1), {
    cwd: side.cwd ?? projectRoot, detached: true, stdio: side.ipc ? ['ignore', 'ignore', 'inherit', 'ipc'] : ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'silent', NODE_ENV: 'production' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (side.untilExit) {
    await exited;
    if (child.exitCode !== 0) throw new Error(`${side.label} exited with code ${child.exitCode}`);
    return performance.now() - started;
  }
  let elapsed = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${side.label} exited (code ${child.exitCode}) before answering`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${request.path}`, { headers: request.headers });
        if (res.status === 200) { elapsed = performance.now() - started; break; }
        throw new Error(`${side.label} answered ${res.status} to ${request.path}`);
      } catch (e) {
        if (!(e instanceof TypeError)) throw e; // not listening yet: fetch fails with a TypeError
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  return elapsed;
}
