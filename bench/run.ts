// `npm run bench`: each scenario against the framework, against a hand-written Koa + pg baseline doing the same work
// (bench/baseline-server.ts: the framework's overhead), and against an expert's hand-written Fastify + pg server with
// the fewest statements (bench/expert-server.ts: what the framework could be), on one freshly migrated database
// (DATABASE_URL's server, or an embedded one), in alternating order. Latency scenarios send two requests to the
// framework (a deep page against the first; an account with a million ledger postings against one with sixty; a
// year's stats series against a day's), or, with `on`, to the framework and the same-work baseline (a year's series
// against the baseline's scan of the payments); `sequential` ones one request at a time;
// version scenarios send the same request to the framework at the newest and at an older version.
// The last lines are the headlines: each side's requests/s, CPU and statements per request, and the ratios.
// Settings: BENCH_DURATION (s, default 8), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20), BENCH_ROUNDS (4: one-round results on a shared VM swing by ±20%);
// BENCH_ONLY=<text> runs only the scenarios whose name contains it (BENCH_ONLY==<name>: exactly that one); BENCH_PROFILE=1 writes CPU profiles of the servers to .data/bench-profiles/;
// BENCH_EXPERT_JSON=sql has the expert build its JSON in SQL instead of JavaScript (both: one expert each way); BENCH_NODE_FLAGS adds node flags to the servers; BENCH_SHOW_QUERIES=1 prints each side's
// statements for one request (BENCH_SHOW_QUERIES_CHARS of each, 200 by default); BENCH_PAYMENT_ROWS and BENCH_LEDGER_POSTINGS (1,000,000 each) size the seed; BENCH_RENEWAL_MEMBERSHIPS
// (1,000,000), BENCH_RENEWALS_DUE (3,000) and BENCH_RENEWAL_ROUNDS (3) size the renewals scenario (bench/renewals.ts).

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../wiring/compose.js';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import { openServer, createKnex, withDatabase } from '../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { isSealed, unseal } from '../runtime/sealed-secrets.js';
import { projectRoot } from '../runtime/project-root.js';
import { seed } from './seed.js';
import { postgresCpuBetween, postgresCpuTicks } from './postgres-cpu.js';
import { measureApiLogWriterApart } from './api-log-cost.js';
import { measureStartUp } from './start-up.js';
import { API_PROCESS_NODE_FLAGS } from '../bin/api-cluster.mjs';
import { analyzeLikeAutovacuum } from './autoanalyze.js';
import { compileBenchEntries, primeCodeCache } from './compiled.js';
import { EXPORT_SCENARIO, measureExport } from './export.js';
import { RENEWALS_SCENARIO, measureRenewals } from './renewals.js';
import { scenarios, versionScenarios, latencyScenarios, type BenchRequest, type Scenario } from './scenarios.js';
import { specData } from '../generated/spec-data.js';
import { operations } from '../generated/routes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/** framework/same-work on the headlines: what the framework's own machinery may cost */
const TARGET = 0.95;
/** framework/expert on the headlines, by throughput and by server CPU per request: at least level with an
 * expert's hand-written server on throughput, within a tenth of it on CPU */
const EXPERT_TARGET = 1.0;
const EXPERT_CPU_TARGET = 0.9;
/** framework/expert resident memory after the same load, at most */
const RSS_TARGET = 1.2;
/** BENCH_ONLY=<text>: only the scenarios whose name contains it */
const ONLY = process.env.BENCH_ONLY ?? '';
// BENCH_ONLY==<name>: only the scenario of exactly that name; alternatives joined by `|` (`=GET /payments/{id}|=GET /payments`)
const ONLY_ANY = ONLY.split('|');
const selected = <T extends { name: string }>(list: T[]) =>
  list.filter((x) => ONLY_ANY.some((only) => (only.startsWith('=') ? x.name === only.slice(1) : x.name.includes(only))));
const ROUTING = 'routing by operations mounted';
/** the routing scenario's two servers: the 89 operations the API had when routing cost was first set a bound, and the 300 it must scale to */
const [ROUTING_FEW, ROUTING_MANY] = [89, 300];
const START_UP = 'start-up';
const API_LOGS = 'api logs';
const VERSION_TARGET = 0.9;
const HEAD = specData.versions[0];
const OLDEST = specData.versions[specData.versions.length - 1];
const PROFILE_DIR = process.env.BENCH_PROFILE === '1' ? join(projectRoot, '.data', 'bench-profiles') : null;
const SHOW_QUERIES = process.env.BENCH_SHOW_QUERIES === '1';
/** BENCH_NODE_FLAGS: node flags for the servers, e.g. --trace-gc to see which collections a scenario costs */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
/** BENCH_FRAMEWORK_NODE_FLAGS: node flags for the framework's server alone, e.g. --trace-opt to see what it compiles */
const FRAMEWORK_NODE_FLAGS = (process.env.BENCH_FRAMEWORK_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
/** BENCH_EXPERT_JSON: js (default) or sql, where the expert builds its responses; both: two experts, one each */
const EXPERT_JSON = (['sql', 'both'] as const).find((x) => x === process.env.BENCH_EXPERT_JSON) ?? 'js';

type Name = 'framework' | 'same-work' | 'expert' | 'expert-sql' | 'framework-few-ops' | 'framework-300' | 'framework-no-logs' | 'framework-logs';

interface Contender {
  name: Name;
  url: string;
  child: ChildProcess;
  ask<T>(type: string): Promise<T>;
}

// The framework runs as `npm start` runs it: from V8's code cache (bench/compiled.ts).
const compiled = await compileBenchEntries('servers', ['framework-server.ts', 'baseline-server.ts', 'expert-server.ts'],
  PROFILE_DIR !== null || process.env.BENCH_READABLE === '1', ['framework-server.ts']);

async function launch(name: Name, file: string, databaseUrl: string, env: Record<string, string> = {}): Promise<Contender> {
  // One directory per server: the tsx loader thread writes a profile of its own beside the main thread's.
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`] : [];
  // Rate-limit budgets far above what the benchmark sends on one key: their cost is measured, not their refusals.
  const childEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'production',
    RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER ?? '1000000', ...env };
  // The framework runs with the flags `npm start` gives its API processes; V8's code cache is written under them.
  const flags = file !== 'framework-server.ts' ? NODE_FLAGS
    : [...(process.env.BENCH_NO_API_FLAGS ? [] : API_PROCESS_NODE_FLAGS), ...NODE_FLAGS, ...FRAMEWORK_NODE_FLAGS];
  await primeCodeCache(compiled.get(file)!, childEnv, flags);
  const child = fork(compiled.get(file)!, [], {
    execArgv: [...profile, ...flags],
    env: childEnv,
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

/** One request, with the statements it made. */
async function counted(c: Contender, r: BenchRequest) {
  const before = (await c.ask<QueryLog>('queries')).queries;
  const res = await send(c, r);
  const log = await c.ask<QueryLog>('queries');
  const queries = log.queries - before;
  const statements = log.recent.slice(-queries);
  if (SHOW_QUERIES) console.log(`  ${c.name}:\n${statements.map((q) => `    ${q.replace(/\s+/g, ' ').slice(0, Number(process.env.BENCH_SHOW_QUERIES_CHARS ?? 200))}`).join('\n')}`);
  return { ...res, name: c.name, queries, statements };
}

/** Which fields of two bodies differ (top level, or under `data` item by item for lists). */
function differing(a: Record<string, any>, b: Record<string, any>): string[] {
  const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])];
  return keys.filter((k) => !isDeepStrictEqual(a?.[k], b?.[k])).flatMap((k) => (Array.isArray(a?.[k]) && Array.isArray(b?.[k]) && k === 'data'
    ? a[k].flatMap((x: any, i: number) => differing(x, b[k][i]).map((f) => `data[${i}].${f}`))
    : [k]));
}

const without = (body: Record<string, any>, fields: string[]) => Object.fromEntries(Object.entries(body).filter(([k]) => !fields.includes(k)));
/** What differs between two creates of the same request: the new row's id and the moment it was written. */
const CREATED = ['id', 'created_at', 'updated_at'];
/** Fields at any depth that follow the clock of the request (a payout's arrival estimates). */
const CLOCKED = 'estimated_arrival';
const unclocked = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(unclocked);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== CLOCKED).map(([k, v]) => [k, unclocked(v)]));
};

/** A stored response as runtime/idempotency.ts keeps it ({ id, sealed }), opened: whether it is sealed and carries the
 * id beside it, and the response it seals but for what follows the new row and the clock. */
function openedResponse(stored: Record<string, any>) {
  const sealed = typeof stored?.sealed === 'string' && isSealed(stored.sealed);
  let body: unknown = stored;
  try {
    if (sealed) body = JSON.parse(unseal(stored.sealed));
  } catch {
    body = 'unreadable: sealed under another secret';
  }
  return { sealed, id_beside: stored && 'id' in stored, body: unclocked(body && typeof body === 'object' ? without(body as Record<string, any>, CREATED) : body) };
}

/**
 * After one keyed create each from the framework and the expert: both wrote the same idempotency record (its request
 * hash and its sealed response, opened) and, for POST /payments (`payment`), the same payment and collection job,
 * but for the new row's id and timestamps. Returns what differs.
 */
async function rowsWritten(db: Knex, written: { id: string; key: string }[], payment: boolean): Promise<string[]> {
  const read = async ({ id, key }: { id: string; key: string }) => {
    const record = await db('idempotency_keys').where({ key }).first();
    const opened = { record: record && { ...without(record, ['key', ...CREATED, 'expires_at']), response: openedResponse(record.response) } };
    if (!payment) return opened;
    const row = await db('payments').where({ id }).first();
    const job = await db.raw(`select t.identifier, j.payload, j.priority, j.max_attempts, j.flags, j.job_queue_id, j.run_at <= now() as due
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where j.key = ?`, [`collect_payment:${id}`]);
    return {
      ...opened,
      payment: row && without(row, CREATED),
      job: job.rows.map((j: Record<string, any>) => ({ ...j, payload: JSON.stringify(j.payload) === JSON.stringify({ payment_id: id }) })),
    };
  };
  const [a, b] = (await Promise.all(written.map(read))) as Record<string, any>[];
  return (payment ? ['payment', 'job', 'record'] : ['record']).flatMap((table) => {
    if (!a[table] || !b[table]) return [`${table}: missing`];
    return differing(a[table], b[table]).map((f) => `${table}.${f}`);
  });
}

/**
 * One request to each side after a first one (so that each is counted in its steady state, e.g. an API key's last
 * use just recorded): all answer 2xx; reads answer the framework's body; the same-work baseline makes as many
 * statements as the framework. For creates (fresh Idempotency-Keys), the expert's body and rows equal the framework's
 * but for the new id and timestamps (the same-work baseline returns its row as it is). Returns each side's statements.
 */
async function verify(db: Knex, scenario: Scenario, r: BenchRequest, contenders: Contender[]): Promise<Map<Name, number>> {
  const create = scenario.check === 'status';
  const keyed = (): BenchRequest => {
    const fresh = r.freshBody ? { ...r, body: r.freshBody() } : r;
    return r.freshIdempotencyKey ? { ...fresh, headers: { ...fresh.headers, 'idempotency-key': randomUUID() } } : fresh;
  };
  for (const c of contenders) await send(c, keyed());
  const answers = [];
  const keys: string[] = [];
  for (const c of contenders) {
    const request = keyed();
    keys.push(request.headers['idempotency-key']);
    const res = await counted(c, request);
    if (res.status < 200 || res.status >= 300) throw new Error(`${scenario.name}: the ${c.name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    // The count is the median of three requests: one may meet a cache entry that just reached its age (10 s), as the
    // first check after a long scenario sometimes did (2-3 statements printed for reads that make 1).
    const again = [(await counted(c, keyed())).queries, (await counted(c, keyed())).queries];
    answers.push({ ...res, queries: [res.queries, ...again].sort((a, b) => a - b)[1] });
  }
  const [framework, ...others] = answers;
  const verdicts = [];
  for (const other of others) {
    if (create && other.name === 'same-work') continue;
    const [a, b] = create ? [without(framework.body, CREATED), without(other.body, CREATED)].map(unclocked) as Record<string, any>[]
      : [framework.body, other.body];
    const diff = differing(a, b);
    verdicts.push(`${other.name} ${diff.length ? 'DIFFERENT' : 'same'}`);
    if (diff.length) console.log(`  WARNING: the ${other.name} no longer answers what the framework does; fields differ: ${diff.join(', ')}`);
  }
  for (const [i, expert] of answers.entries()) {
    if (!create || !(scenario.compareRows || r.freshIdempotencyKey) || !expert.name.startsWith('expert')) continue;
    const diff = await rowsWritten(db, [{ id: framework.body.id, key: keys[0] }, { id: expert.body.id, key: keys[i] }], !!scenario.compareRows);
    verdicts.push(`${expert.name} rows ${diff.length ? 'DIFFERENT' : 'same'}`);
    if (diff.length) console.log(`  WARNING: the ${expert.name} no longer writes the rows the framework writes; these differ: ${diff.join(', ')}`);
  }
  console.log(`${scenario.name}: ${answers.map((x) => x.status).join('/')}, ${create ? 'body and rows' : 'response'} (${JSON.stringify(framework.body).length} bytes): `
    + `${verdicts.join(', ')}; statements per request: ${answers.map((x) => `${x.name} ${x.queries}`).join(', ')}`);
  const sameWork = answers.find((x) => x.name === 'same-work');
  if (sameWork && sameWork.queries !== framework.queries) {
    console.log('  WARNING: the same-work baseline no longer makes the statements the framework makes:');
    for (const x of [framework, sameWork]) console.log(`  ${x.name}:\n${x.statements.map((q) => `    ${q}`).join('\n')}`);
  }
  return new Map(answers.map((x) => [x.name, x.queries]));
}

interface Measurement {
  rate: number;
  /** mean latency, ms */
  latency: number;
  /** the 99th percentile's and the slowest request's latency, ms */
  p99: number;
  max: number;
  /** the server process's CPU time per request, µs: less sensitive than req/s to other load on the machine */
  cpu: number;
  /** of which in the kernel (socket I/O; on loopback TCP the sender also pays for the receiving side) */
  system: number;
  /** PostgreSQL's CPU time per request, µs (all its processes on this machine; null where /proc cannot tell) */
  database: number | null;
  /** statements the server sent per request */
  statements: number;
  /** the server process's resident memory at the end of the run, MB (null where /proc cannot tell) */
  rss: number | null;
}

/** A process's resident set size now, MB, from /proc (null elsewhere). */
function residentMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

async function measure(c: Contender, r: BenchRequest, duration: number): Promise<Measurement> {
  const before = await c.ask<NodeJS.CpuUsage>('cpu');
  const queriesBefore = (await c.ask<QueryLog>('queries')).queries;
  const databaseBefore = postgresCpuTicks(postmaster);
  const fresh = r.freshIdempotencyKey || r.freshBody
    ? { requests: [{ setupRequest: (req: Record<string, any>) => ({
      ...req,
      ...(r.freshBody ? { body: r.freshBody() } : {}),
      headers: r.freshIdempotencyKey ? { ...req.headers, 'idempotency-key': randomUUID() } : req.headers,
    }) }] }
    : {};
  const result = await autocannon({ url: `${c.url}${r.path}`, method: r.method, headers: r.headers, body: r.body, connections: CONNECTIONS, duration, ...fresh });
  const after = await c.ask<NodeJS.CpuUsage>('cpu');
  const databaseAfter = postgresCpuTicks(postmaster);
  const queriesAfter = (await c.ask<QueryLog>('queries')).queries;
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${c.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpu = after.user + after.system - before.user - before.system;
  const n = result.requests.total;
  const spent = postgresCpuBetween(databaseBefore, databaseAfter);
  const database = spent === null ? null : spent / n;
  return {
    rate: n / duration, cpu: cpu / n, system: (after.system - before.system) / n, database, latency: result.latency.mean, p99: result.latency.p99, max: (result.latency as unknown as { max: number }).max,
    statements: (queriesAfter - queriesBefore) / n, rss: residentMb(c.child.pid),
  };
}

/** The bench's own PostgreSQL (an embedded server's postmaster, from its data directory); null with DATABASE_URL. */
let postmaster: string | null = null;


const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

interface Side {
  label: string;
  contender: Contender;
  request: BenchRequest;
}

interface Result {
  label: string;
  rate: number;
  latency: number;
  cpu: number;
  database: number | null;
  statements: number;
  /** resident memory after its load, MB: the mean over its rounds */
  rss: number | null;
  /** each round's requests/s, in order: round r of every side ran back to back */
  rates: number[];
}

/** Measures the sides in alternating order (forwards, then backwards, ...); each side's means over the rounds. */
async function measureSides(sides: Side[]): Promise<Result[]> {
  const runs: Measurement[][] = sides.map(() => []);
  const forwards = sides.map((_, i) => i);
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of round % 2 === 0 ? forwards : [...forwards].reverse()) {
      const { label, contender, request } = sides[i];
      await measure(contender, request, WARMUP);
      await analyzeLikeAutovacuum(db);
      const m = await measure(contender, request, DURATION);
      runs[i].push(m);
      console.log(`  round ${round + 1} ${label.padEnd(13)} ${String(Math.round(m.rate)).padStart(6)} req/s, ${m.latency.toFixed(2)} ms mean latency (p99 ${m.p99}, max ${m.max}), ${Math.round(m.cpu)} µs server CPU per request (${Math.round(m.system)} µs system)`
        + (m.database === null ? '' : `, ${Math.round(m.database)} µs PostgreSQL CPU`) + `, ${m.statements.toFixed(2)} statements`);
    }
  }
  return runs.map((ms, i) => ({
    label: sides[i].label,
    rate: mean(ms.map((m) => m.rate)),
    latency: mean(ms.map((m) => m.latency)),
    cpu: mean(ms.map((m) => m.cpu)),
    database: ms.some((m) => m.database === null) ? null : mean(ms.map((m) => m.database!)),
    statements: mean(ms.map((m) => m.statements)),
    rss: ms.some((m) => m.rss === null) ? null : mean(ms.map((m) => m.rss!)),
    rates: ms.map((m) => m.rate),
  }));
}

/** Mean latency of `n` requests sent one at a time to each side (after one unmeasured), sides alternating per round. */
async function sequentialLatency(sides: Side[], n: number): Promise<{ label: string; latency: number }[]> {
  const times: number[][] = sides.map(() => []);
  for (const side of sides) await send(side.contender, side.request);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, side] of sides.entries()) {
      for (let k = 0; k < n; k++) {
        const start = performance.now();
        const res = await send(side.contender, side.request);
        times[i].push(performance.now() - start);
        if (res.status !== 200) throw new Error(`${side.label}: ${res.status}`);
      }
      console.log(`  round ${round + 1} ${side.label.padEnd(13)} ${mean(times[i].slice(-n)).toFixed(2)} ms mean latency over ${n} requests`);
    }
  }
  return sides.map((side, i) => ({ label: side.label, latency: mean(times[i]) }));
}

/** The ratio of the means, then the spread of the rounds' own ratios (each round's sides ran back to back, so a
 * disturbance of the machine that lasts seconds shows as one round apart from the others). */
const ratio = (a: Result, b: Result, target: number, cpuTarget?: number) => {
  const rounds = a.rates.map((rate, i) => rate / b.rates[i]).sort((x, y) => x - y);
  return `${a.label}/${b.label} ${(a.rate / b.rate).toFixed(2)} (target >= ${target.toFixed(2)}; by server CPU ${(b.cpu / a.cpu).toFixed(2)}`
    + `${cpuTarget === undefined ? '' : ` (target >= ${cpuTarget.toFixed(2)})`}; `
    + `rounds ${rounds[0].toFixed(2)}-${rounds[rounds.length - 1].toFixed(2)})`;
};

/** The headline of a scenario against both baselines: a line per side, then the two ratios. Statements per request
 * are those of the verified request (the steady state: runs end with requests in flight). */
async function compareAll(name: string, sides: Side[], target: number, statements: Map<Name, number>): Promise<string> {
  const [framework, ...baselines] = (await measureSides(sides)).map((r) => ({ ...r, statements: statements.get(r.label as Name) ?? r.statements }));
  const row = (r: Result) => `  ${r.label.padEnd(10)} ${String(Math.round(r.rate)).padStart(6)} req/s ${String(Math.round(r.cpu)).padStart(6)} µs CPU/req`
    + `${r.database === null ? '' : ` ${String(Math.round(r.database)).padStart(6)} µs PostgreSQL/req`} ${String(r.statements).padStart(3)} statements/req`
    + `${r.rss === null ? '' : ` ${String(Math.round(r.rss)).padStart(5)} MB RSS after load`}`;
  const ratios = baselines.map((b) => (b.label.startsWith('expert') ? ratio(framework, b, EXPERT_TARGET, EXPERT_CPU_TARGET) : ratio(framework, b, target))
    + (framework.rss !== null && b.rss !== null ? ` (RSS ${(framework.rss / b.rss).toFixed(2)}${b.label.startsWith('expert') ? `, target <= ${RSS_TARGET}` : ''})` : ''));
  return [`${name}:`, ...[framework, ...baselines].map(row), `  ${ratios.join(', ')}`].join('\n');
}

async function compare(name: string, sides: [Side, Side], target: number): Promise<string> {
  const [a, b] = await measureSides(sides);
  console.log(`${name}: server CPU per request: ${a.label} ${Math.round(a.cpu)} µs, ${b.label} ${Math.round(b.cpu)} µs `
    + `(${b.label}/${a.label} ${(b.cpu / a.cpu).toFixed(2)})\n`);
  return `${name}: ${a.label} ${Math.round(a.rate)} req/s, ${b.label} ${Math.round(b.rate)} req/s, `
    + `ratio ${(a.rate / b.rate).toFixed(2)} (target >= ${target})`;
}

// One PostgreSQL for the run: DATABASE_URL's server (a fresh database on it, dropped at the end) or an embedded one.
const dataDir = join(projectRoot, '.data', `pg-bench-${process.pid}`);
const server = await openServer(dataDir, { persistent: false, durable: false });
if (!process.env.DATABASE_URL) postmaster = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
const adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
const name = `bench_${randomToken(8).toLowerCase()}`;
const databaseUrl = await ensureDatabase(adminUrl, name);
const db = createKnex(databaseUrl, 2);
const contenders: Contender[] = [];
const summary: string[] = [];
try {
  await migrate(db, databaseUrl);
  const seeding = Date.now();
  const fixture = await seed(db);
  console.log(`seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s: ${fixture.paymentRows} payments, ${fixture.ledgerPostings} ledger postings`);
  // Start-up first, before any other server runs: measured last, it shared the two cores with seven running servers
  // after the write scenarios (969-1,008 ms in full runs, 552-572 ms run alone).
  if (selected([{ name: START_UP }]).length) {
    console.log(`${START_UP}: launch to the first 200 of GET /accounts/{id}, on the migrated database`);
    summary.push(await measureStartUp(db, databaseUrl, scenarios[0].request(fixture)));
    console.log('');
  }
  // Renewals run in this process (bench/renewals.ts): before the servers start, whose workers would take their jobs.
  if (selected([{ name: RENEWALS_SCENARIO }]).length) {
    summary.push(await measureRenewals(db, adminUrl, postmaster));
    console.log('');
  }
  contenders.push(await launch('framework', 'framework-server.ts', databaseUrl));
  contenders.push(await launch('same-work', 'baseline-server.ts', databaseUrl));
  if (EXPERT_JSON !== 'sql') contenders.push(await launch('expert', 'expert-server.ts', databaseUrl, { EXPERT_JSON: 'js' }));
  if (EXPERT_JSON !== 'js') {
    contenders.push(await launch(EXPERT_JSON === 'both' ? 'expert-sql' : 'expert', 'expert-server.ts', databaseUrl, { EXPERT_JSON: 'sql' }));
  }
  console.log(`${CONNECTIONS} connections, ${WARMUP} s warm-up and ${DURATION} s measured per run, ${ROUNDS} rounds in alternating order; `
    + `the expert builds its JSON in ${{ js: 'JavaScript', sql: 'SQL', both: 'JavaScript (expert) and SQL (expert-sql)' }[EXPERT_JSON]}\n`);

  for (const scenario of selected(scenarios)) {
    const request = scenario.request(fixture);
    const serving = contenders.filter((c) => c.name === 'framework' || !scenario.baselines
      || scenario.baselines.some((b) => c.name.startsWith(b)));
    const statements = await verify(db, scenario, request, serving);
    summary.push(await compareAll(scenario.name, serving.map((contender) => ({ label: contender.name, contender, request })),
      scenario.target ?? TARGET, statements));
    console.log('');
  }
  for (const scenario of selected(latencyScenarios)) {
    const on = (i: 0 | 1) => contenders.find((c) => c.name === (scenario.on?.[i] ?? 'framework'))!;
    const sides: Side[] = [
      { label: scenario.labels[0], contender: on(0), request: scenario.first(fixture) },
      { label: scenario.labels[1], contender: on(1), request: scenario.second(fixture) },
    ];
    for (const [i, side] of sides.entries()) {
      const res = await send(side.contender, side.request);
      const wrong = res.status === 200 ? scenario.check(res.body, fixture, i as 0 | 1) : `status ${res.status}`;
      if (wrong) throw new Error(`${scenario.name} ${side.label}: ${wrong}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    console.log(`${scenario.name}: ${scenario.labels.join(' vs ')} (${scenario.describe(fixture)})`);
    if (scenario.sequential) {
      const [a, b] = await sequentialLatency(sides, Number(process.env.BENCH_SEQUENTIAL ?? scenario.sequential));
      summary.push(`${scenario.name}: ${a.label} ${a.latency.toFixed(2)} ms, ${b.label} ${b.latency.toFixed(2)} ms, one request at a time; `
        + `latency ratio ${(b.latency / a.latency).toFixed(2)} (target <= ${scenario.maxRatio})`);
      console.log('');
      continue;
    }
    const [a, b] = await measureSides(sides);
    summary.push(`${scenario.name}: ${a.label} ${Math.round(a.rate)} req/s, ${a.latency.toFixed(2)} ms, ${Math.round(a.cpu)} µs CPU/req; `
      + `${b.label} ${Math.round(b.rate)} req/s, ${b.latency.toFixed(2)} ms, ${Math.round(b.cpu)} µs CPU/req; `
      + `latency ratio ${(b.latency / a.latency).toFixed(2)} (target <= ${scenario.maxRatio}; by server CPU ${(b.cpu / a.cpu).toFixed(2)})`);
    console.log('');
  }
  if (selected([{ name: ROUTING }]).length) {
    // Routing cost against the number of operations (the 89 there were when it was first bounded against 300): the same
    // GET /accounts/{id} on a server mounting the first 89 operations and on one mounting every real operation and
    // synthetic ones up to 300 (bench/framework-server.ts BENCH_MOUNTED_OPERATIONS).
    const [fewCount, manyCount] = [ROUTING_FEW, Math.max(ROUTING_MANY, operations.length)];
    const fewServer = await launch('framework-few-ops', 'framework-server.ts', databaseUrl, { BENCH_MOUNTED_OPERATIONS: String(fewCount) });
    contenders.push(fewServer);
    const many = await launch('framework-300', 'framework-server.ts', databaseUrl, { BENCH_MOUNTED_OPERATIONS: String(manyCount) });
    contenders.push(many);
    const request = scenarios[0].request(fixture);
    for (const c of [fewServer, many]) {
      const res = await send(c, request);
      if (res.status !== 200) throw new Error(`${ROUTING}: the ${c.name} answered ${res.status}`);
    }
    console.log(`${ROUTING}: GET /accounts/{id} with ${fewCount} operations mounted against ${manyCount}`);
    const [few, lots] = await measureSides([
      { label: `${fewCount} operations`, contender: fewServer, request },
      { label: `${manyCount} operations`, contender: many, request },
    ]);
    summary.push(`${ROUTING}: ${few.label} ${Math.round(few.rate)} req/s, ${Math.round(few.cpu)} µs CPU/req; ${lots.label} `
      + `${Math.round(lots.rate)} req/s, ${Math.round(lots.cpu)} µs CPU/req; cost ratio ${(few.rate / lots.rate).toFixed(2)} `
      + `(target <= 1.05; by server CPU ${(lots.cpu / few.cpu).toFixed(2)})`);
    console.log('');
  }
  if (selected([{ name: API_LOGS }]).length) {
    // What api logs cost (at most 3% of a read): the same reads on the real server and on one keeping no api logs.
    // Two fresh servers, alike but for api logs: the main one has run the write scenarios before, and its worker may
    // still be busy with their jobs (a full run measured its GET /payments/{id} CPU 30% above a fresh server's).
    const quiet = await launch('framework-no-logs', 'framework-server.ts', databaseUrl, { BENCH_API_LOGS: 'off' });
    contenders.push(quiet);
    const logging = await launch('framework-logs', 'framework-server.ts', databaseUrl);
    contenders.push(logging);
    const unlogged: [string, Result][] = [];
    for (const scenario of scenarios.slice(0, 2)) {
      const request = scenario.request(fixture);
      console.log(`${API_LOGS}: ${scenario.name} with api logs against without`);
      const [without, logged] = await measureSides([
        { label: 'without api logs', contender: quiet, request },
        { label: 'with api logs', contender: logging, request },
      ]);
      unlogged.push([scenario.name, without]);
      summary.push(`${API_LOGS}: ${scenario.name} ${Math.round(logged.rate)} req/s with, ${Math.round(without.rate)} without; ratio `
        + `${(logged.rate / without.rate).toFixed(3)} (by server CPU ${(without.cpu / logged.cpu).toFixed(3)})`);
      console.log('');
    }
    // The writer's own cost, measured directly (bench/api-log-cost.ts), against each read's CPU without api logs.
    const key = await db('api_keys').where({ account_id: fixture.platformId }).first('id');
    const writer = await measureApiLogWriterApart(db, { databaseUrl, postmaster, principal: { kind: 'api_key', credentialId: key.id,
      accountId: fixture.platformId, userId: null, keyScopes: null, versionPin: null }, version: HEAD });
    const writerCost = writer.node + (writer.database ?? 0);
    console.log(`${API_LOGS}: the writer, ${writer.rows} requests logged: ${writer.node.toFixed(1)} µs of the server's CPU and `
      + `${writer.database === null ? 'an unknown share' : `${writer.database.toFixed(1)} µs`} of PostgreSQL's per request\n`);
    for (const [name, without] of unlogged) {
      const request = without.cpu + (without.database ?? 0);
      summary.push(`${API_LOGS}: the writer's CPU per logged request over ${name}'s without api logs: ${writerCost.toFixed(1)} / `
        + `${request.toFixed(0)} µs = ${((100 * writerCost) / request).toFixed(2)}%, a throughput ratio of at least `
        + `${(request / (request + writerCost)).toFixed(3)} (target >= 0.97${writer.database === null ? '; PostgreSQL not counted' : ''})`);
    }
  }
  if (selected([{ name: EXPORT_SCENARIO }]).length) {
    summary.push(await measureExport(db, databaseUrl, fixture));
    console.log('');
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
  // BENCH_KEEP_DATABASE=1 keeps the seeded database for EXPLAIN and psql afterwards (drop it yourself).
  if (process.env.BENCH_KEEP_DATABASE) console.log(`kept the database ${name}`);
  else await dropDatabase(adminUrl, name);
  await server.stop();
}
if (PROFILE_DIR) console.log(`\nCPU profiles: ${PROFILE_DIR}`);
console.log('');
for (const line of summary) console.log(line);
