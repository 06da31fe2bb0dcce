// `npm run bench`: each scenario against the framework and against a hand-written Koa + pg baseline doing the same
// work, on one freshly migrated database (DATABASE_URL's server, or an embedded one), in alternating order.
// Version scenarios send the same request to the framework at the newest and at the oldest version.
// The last lines are the headlines: requests/s of each side and the ratio.
// Settings: BENCH_DURATION (s, default 8), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20), BENCH_ROUNDS (4: one-round results on a shared VM swing by ±20%);
// BENCH_ONLY=<text> runs only the scenarios whose name contains it; BENCH_PROFILE=1 writes CPU profiles of both servers to .data/bench-profiles/.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { openServer, createKnex, withDatabase } from '../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { projectRoot } from '../bin/paths.js';
import { seed } from './seed.js';
import { scenarios, versionScenarios, latencyScenarios, type BenchRequest, type Scenario } from './scenarios.js';
import { specData } from '../generated/spec-data.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const TARGET = 0.85;
/** BENCH_ONLY=<text>: only the scenarios whose name contains it */
const ONLY = process.env.BENCH_ONLY ?? '';
const selected = <T extends { name: string }>(list: T[]) => list.filter((x) => x.name.includes(ONLY));
const VERSION_TARGET = 0.9;
const HEAD = specData.versions[0];
const OLDEST = specData.versions[specData.versions.length - 1];
const PROFILE_DIR = process.env.BENCH_PROFILE === '1' ? join(projectRoot, '.data', 'bench-profiles') : null;

interface Contender {
  name: 'framework' | 'baseline';
  url: string;
  child: ChildProcess;
  ask<T>(type: string): Promise<T>;
}

async function launch(name: Contender['name'], file: string, databaseUrl: string): Promise<Contender> {
  // One directory per server: the tsx loader thread writes a profile of its own beside the main thread's.
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : [];
  const child = fork(join(projectRoot, 'bench', file), [], {
    execArgv: ['--import', 'tsx', ...profile],
    // Budgets far above what the benchmark sends on one key: their cost is measured, not their refusals.
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'production', RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER ?? '1000000' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reply = <T>() => new Promise<T>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`the ${name} server exited (code ${code})`));
    child.once('exit', exited);
    child.once('message', (m) => {
      child.off('exit', exited);
      resolve(m as T);
    });
  });
  const { url } = await reply<{ url: string }>();
  return {
    name, url, child,
    ask: <T>(type: string) => {
      const answer = reply<T>();
      child.send({ type });
      return answer;
    },
  };
}

async function stop(c: Contender): Promise<void> {
  if (c.child.exitCode !== null) return;
  const exited = new Promise((resolve) => c.child.once('exit', resolve));
  c.child.send({ type: 'stop' });
  await exited;
}

interface QueryLog {
  queries: number;
  recent: string[];
}

async function send(c: Contender, r: BenchRequest) {
  const res = await fetch(`${c.url}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  return { status: res.status, body: await res.json() };
}

/** One request to each: both must answer 200 with the same body after the same number of queries. */
async function verify(scenario: Scenario, r: BenchRequest, contenders: Contender[]): Promise<void> {
  if (scenario.check === 'status') {
    const statuses = [];
    const fresh = () => (r.freshIdempotencyKey ? { ...r.headers, 'idempotency-key': randomUUID() } : r.headers);
    // A first request each, so that both are counted in the steady state (as for reads below).
    for (const c of contenders) await send(c, { ...r, headers: fresh() });
    for (const c of contenders) {
      const headers = fresh();
      const before = (await c.ask<QueryLog>('queries')).queries;
      const res = await send(c, { ...r, headers });
      const log = await c.ask<QueryLog>('queries');
      statuses.push(`${c.name} ${res.status} after ${log.queries - before} queries`);
      if (process.env.BENCH_SHOW_QUERIES === '1') console.log(log.recent.slice(before - log.queries).map((q) => `    ${q.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n'));
      if (res.status >= 300) throw new Error(`${scenario.name}: the ${c.name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    console.log(`${scenario.name}: ${statuses.join(', ')}`);
    return;
  }
  // A first request each, so that both compare in the steady state (e.g. an API key's last use just recorded).
  for (const c of contenders) await send(c, r);
  const answers = [];
  for (const c of contenders) {
    const before = (await c.ask<QueryLog>('queries')).queries;
    const res = await send(c, r);
    const log = await c.ask<QueryLog>('queries');
    const queries = log.queries - before;
    if (res.status !== 200) throw new Error(`${scenario.name}: the ${c.name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    answers.push({ name: c.name, body: res.body, queries, statements: log.recent.slice(-queries) });
  }
  const [a, b] = answers;
  const same = isDeepStrictEqual(a.body, b.body);
  console.log(`${scenario.name}: ${same ? 'same response' : 'DIFFERENT responses'} (${JSON.stringify(a.body).length} bytes), `
    + `queries per request: ${a.name} ${a.queries}, ${b.name} ${b.queries}`);
  if (!same) {
    const keys = new Set([...Object.keys(a.body), ...Object.keys(b.body)]);
    const differing = [...keys].filter((k) => !isDeepStrictEqual(a.body[k], b.body[k]));
    console.log(`  WARNING: the baseline no longer matches the handler; fields differ: ${differing.join(', ')}`);
  }
  if (a.queries !== b.queries) {
    console.log('  WARNING: the baseline no longer makes the queries the framework makes:');
    for (const x of answers) console.log(`  ${x.name}:\n${x.statements.map((q) => `    ${q}`).join('\n')}`);
  }
}

interface Measurement {
  rate: number;
  /** mean latency, ms */
  latency: number;
  /** the server process's CPU time per request, µs: less sensitive than req/s to other load on the machine */
  cpu: number;
  /** of which in the kernel (socket I/O; on loopback TCP the sender also pays for the receiving side) */
  system: number;
  /** PostgreSQL's CPU time per request, µs (all its processes on this machine; null where /proc cannot tell) */
  database: number | null;
}

async function measure(c: Contender, r: BenchRequest, duration: number): Promise<Measurement> {
  const before = await c.ask<NodeJS.CpuUsage>('cpu');
  const databaseBefore = postgresCpuTicks();
  const fresh = r.freshIdempotencyKey
    ? { requests: [{ setupRequest: (req: Record<string, any>) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }] }
    : {};
  const result = await autocannon({ url: `${c.url}${r.path}`, method: r.method, headers: r.headers, body: r.body, connections: CONNECTIONS, duration, ...fresh });
  const after = await c.ask<NodeJS.CpuUsage>('cpu');
  const databaseAfter = postgresCpuTicks();
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${c.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpu = after.user + after.system - before.user - before.system;
  const n = result.requests.total;
  const spent = postgresCpuBetween(databaseBefore, databaseAfter);
  const database = spent === null ? null : spent / n;
  return { rate: n / duration, cpu: cpu / n, system: (after.system - before.system) / n, database, latency: result.latency.mean };
}

/** CPU time, in clock ticks, of each PostgreSQL process on this machine, from /proc (Linux; null elsewhere). */
function postgresCpuTicks(): Map<string, number> | null {
  try {
    const ticks = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12])); // utime and stime: fields 14 and 15 of proc(5)
    }
    return ticks;
  } catch {
    return null;
  }
}

/** µs of PostgreSQL CPU between two readings: what each side's requests cost the database they share. A process that
 * exits between the readings takes its share with it (the pools keep their connections open during a run). */
function postgresCpuBetween(before: Map<string, number> | null, after: Map<string, number> | null): number | null {
  if (!before || !after) return null;
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1e6) / CLOCK_TICKS;
}
// USER_HZ: 100 on every Linux this runs on.
const CLOCK_TICKS = 100;

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

interface Side {
  label: string;
  contender: Contender;
  request: BenchRequest;
}

/** Measures two sides in alternating order; returns the headline: each side's req/s and the ratio first/second. */
async function measureSides(sides: [Side, Side]): Promise<Measurement[][]> {
  const runs: Measurement[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const { label, contender, request } = sides[i];
      await measure(contender, request, WARMUP);
      const m = await measure(contender, request, DURATION);
      runs[i].push(m);
      console.log(`  round ${round + 1} ${label.padEnd(13)} ${String(Math.round(m.rate)).padStart(6)} req/s, ${m.latency.toFixed(2)} ms mean latency, ${Math.round(m.cpu)} µs server CPU per request (${Math.round(m.system)} µs system)`
        + (m.database === null ? '' : `, ${Math.round(m.database)} µs PostgreSQL CPU`));
    }
  }
  return runs;
}

async function compare(name: string, sides: [Side, Side], target: number): Promise<string> {
  const runs = await measureSides(sides);
  const [a, b] = runs.map((ms) => ({ rate: mean(ms.map((m) => m.rate)), cpu: mean(ms.map((m) => m.cpu)) }));
  console.log(`${name}: server CPU per request: ${sides[0].label} ${Math.round(a.cpu)} µs, ${sides[1].label} ${Math.round(b.cpu)} µs `
    + `(${sides[1].label}/${sides[0].label} ${(b.cpu / a.cpu).toFixed(2)})\n`);
  return `${name}: ${sides[0].label} ${Math.round(a.rate)} req/s, ${sides[1].label} ${Math.round(b.rate)} req/s, `
    + `ratio ${(a.rate / b.rate).toFixed(2)} (target >= ${target})`;
}

// One PostgreSQL for the run: DATABASE_URL's server (a fresh database on it, dropped at the end) or an embedded one.
const server = await openServer(join(projectRoot, '.data', `pg-bench-${process.pid}`), { persistent: false, durable: false });
const adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
const name = `bench_${randomToken(8).toLowerCase()}`;
const databaseUrl = await ensureDatabase(adminUrl, name);
const db = createKnex(databaseUrl, 2);
const contenders: Contender[] = [];
const summary: string[] = [];
try {
  await migrate(db, databaseUrl);
  const fixture = await seed(db);
  contenders.push(await launch('framework', 'framework-server.ts', databaseUrl));
  contenders.push(await launch('baseline', 'baseline-server.ts', databaseUrl));
  console.log(`${CONNECTIONS} connections, ${WARMUP} s warm-up and ${DURATION} s measured per run, ${ROUNDS} rounds in alternating order\n`);

  for (const scenario of selected(scenarios)) {
    const request = scenario.request(fixture);
    await verify(scenario, request, contenders);
    summary.push(await compare(scenario.name, [
      { label: 'framework', contender: contenders[0], request },
      { label: 'baseline', contender: contenders[1], request },
    ], scenario.target ?? TARGET));
  }
  for (const scenario of selected(latencyScenarios)) {
    const sides: [Side, Side] = [
      { label: scenario.labels[0], contender: contenders[0], request: scenario.first(fixture) },
      { label: scenario.labels[1], contender: contenders[0], request: scenario.second(fixture) },
    ];
    for (const side of sides) {
      const res = await send(contenders[0], side.request);
      if (res.status !== 200 || !res.body.data?.length) throw new Error(`${scenario.name} ${side.label}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    console.log(`${scenario.name}: ${scenario.labels.join(' vs ')} over ${fixture.paymentRows} rows`);
    const runs = await measureSides(sides);
    const [a, b] = runs.map((ms) => mean(ms.map((m) => m.latency)));
    summary.push(`${scenario.name} latency: ${scenario.labels[0]} ${a.toFixed(2)} ms, ${scenario.labels[1]} ${b.toFixed(2)} ms, `
      + `ratio ${(b / a).toFixed(2)} (target <= ${scenario.maxRatio})`);
  }
  for (const scenario of selected(versionScenarios)) {
    const older = scenario.older ?? OLDEST;
    const [latest, old] = [scenario.request(fixture, HEAD), scenario.request(fixture, older)];
    for (const [version, request] of [[HEAD, latest], [older, old]] as const) {
      const res = await send(contenders[0], request);
      if (res.status !== 200) throw new Error(`${scenario.name} at ${version}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    console.log(`${scenario.name}: the same request at ${HEAD} and at ${older} (crossing every change that touches it)`);
    summary.push(await compare(scenario.name, [
      { label: `at ${older}`, contender: contenders[0], request: old },
      { label: `at ${HEAD}`, contender: contenders[0], request: latest },
    ], scenario.target ?? VERSION_TARGET));
  }
} finally {
  for (const c of contenders) await stop(c);
  await db.destroy();
  await dropDatabase(adminUrl, name);
  await server.stop();
}
if (PROFILE_DIR) console.log(`\nCPU profiles: ${PROFILE_DIR}`);
console.log('');
for (const line of summary) console.log(line);
