// A deployment of several machines, built on this one with network namespaces (docs/deployment.md): two API hosts
// (`npm start`, RUN_WORKER=false) and a worker host (`npm run worker`), each in its own namespace with its own
// address and its own local disk, reaching one PostgreSQL and one Redis over the bridge's address (10.77.<n>.1,
// forwarded to the services on loopback). Everything is checked over HTTP against the two API hosts' addresses:
// a file uploaded through one downloads through the other; rate limit budgets are shared; a payment created on an
// API host is collected by the worker host; the worker host killed mid-job leaves its job to another worker host,
// which finishes it once; a burst of creates across both API hosts ends with no error and every object listed once.
// Needs root, `ip` and network namespaces: without them each test skips, saying why.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { queryString, type TestApp, type TestResponse, type RequestOptions } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { holdRowLock } from '../helpers/processes.js';
import { postingsOf } from '../helpers/ledger.js';
import { until } from '../helpers/poll.js';
import { skip } from '../helpers/skip.js';
import { CARDS, makeSeller, makeToken, VERSION } from '../payments/payment-fixtures.js';
import { randomToken } from '../../runtime/ids.js';
import { createKnex } from '../../runtime/db.js';
import { dropDatabase, ensureDatabase } from '../../runtime/bootstrap.js';
import { signingSecret } from '../../runtime/signed-urls.js';
import { killNamespaceProcesses, makeHostNetwork, namespacesUnavailable, processAlive, removeLeftovers, type HostNetwork } from './network.js';
import { forwardTcp, type TcpForward } from './tcp-forward.js';
import { installHostCode, temporaryPrefix, startApiHost, startWorkerHost, type HostProcess } from './host-processes.js';

const t = suite('multi-host: two API hosts and worker hosts in network namespaces, one PostgreSQL and one Redis');

const API_PORT = 3000;
/** The spec's budgets (100 reads, 50 writes per credential) over a minute instead of a second: a burst lands in one
 * window however slowly a loaded machine sends it, and the burst of creates below stays inside every budget. */
const RATE_LIMIT_WINDOW_MULTIPLIER = 60;
const READ_BUDGET = 100;

let unavailable: string | null = null;
/** this run's database, new and empty: the API hosts migrate it as they start, as a deployment's first start does */
let database: { admin: string; name: string; url: string } | undefined;
/** the test's own connection, to make credentials (test/helpers/fixtures.ts) and read what the hosts did */
let db: Knex;
let network: HostNetwork | undefined;
const forwards: TcpForward[] = [];
const processes: HostProcess[] = [];
const fileStores: string[] = [];
let redisUrl: string | null = null;
let hostEnv: Record<string, string>;
let install: Awaited<ReturnType<typeof installHostCode>> | undefined;
let a: HostProcess & { origin: string };
let b: HostProcess & { origin: string };
// (3) and (4) share a worker host: (3) starts it, (4) kills it mid-job.
let workerOne: HostProcess;
let held: { id: string; lock: Awaited<ReturnType<typeof holdRowLock>> } | undefined;
let seller: Awaited<ReturnType<typeof makeSeller>>;

t.before(async () => {
  try {
    await buildDeployment();
  } catch (e) {
    // uvu reports a failed hook without its error: said here, with the hosts' last output.
    console.log(`  the deployment could not be built: ${(e as Error).stack ?? e}`);
    throw e;
  }
});

async function buildDeployment(): Promise<void> {
  unavailable = namespacesUnavailable();
  if (unavailable) return;
  const removed = removeLeftovers();
  if (removed.length) console.log(`  removed a crashed run's leftovers: ${removed.join(', ')}`);
  const admin = process.env.TEST_ADMIN_URL;
  if (!admin) throw new Error('Run tests with `npm test`: it names the PostgreSQL server');
  await dropCrashedRunsDatabases(admin);
  const name = `mh_${process.pid}_${randomToken(8).toLowerCase()}`;
  database = { admin, name, url: await ensureDatabase(admin, name) };
  network = makeHostNetwork(['api-a', 'api-b', 'worker-1', 'worker-2']);
  // Whatever ends this process (a failed assertion, an exception, the runner's exit) takes the hosts with it.
  process.once('exit', () => network?.remove());
  const gateway = network.gateway;

  // The hosts reach PostgreSQL at gateway:5432 (the suite's server: DATABASE_URL's, or the embedded one's port).
  const hostsDatabase = new URL(database.url);
  forwards.push(await forwardTcp({ host: gateway, port: 5432 }, { host: hostsDatabase.hostname, port: Number(hostsDatabase.port || 5432) }));
  hostsDatabase.hostname = gateway;
  hostsDatabase.port = '5432';
  redisUrl = await reachableRedis();
  if (redisUrl) {
    const redis = new URL(redisUrl);
    forwards.push(await forwardTcp({ host: gateway, port: 6379 }, { host: redis.hostname, port: Number(redis.port || 6379) }));
    redis.hostname = gateway;
    redis.port = '6379';
    redisUrl = redis.href;
  }
  install = await installHostCode();

  hostEnv = {
    DATABASE_URL: hostsDatabase.href,
    LOG_LEVEL: 'warn',
    // Every host signs and checks the same links, and unseals the same secrets.
    FILE_SIGNING_SECRET: signingSecret().toString(),
    // Short liveness: a dead host's jobs are released about 2 s after its last heartbeat.
    WORKER_HEARTBEAT_SECONDS: '0.25', WORKER_DEAD_AFTER_SECONDS: '2',
    RATE_LIMIT_WINDOW_MULTIPLIER: String(RATE_LIMIT_WINDOW_MULTIPLIER),
    // The machine's Redis may serve other runs: this deployment's budgets are its own.
    RATE_LIMIT_KEY_PREFIX: `multi-host-${randomToken(8)}`,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  };
  const apiHost = (name: string) => {
    const host = network!.hosts.get(name)!;
    // Each machine has its own disk: whatever is shared must be shared through PostgreSQL (or Redis).
    const disk = mkdtempSync(join(tmpdir(), `${temporaryPrefix()}${name}-`));
    fileStores.push(disk);
    return startApiHost(host, install!.dir, {
      ...hostEnv, RUN_WORKER: 'false', WEB_CONCURRENCY: '1', FILE_STORAGE_DIR: disk,
      PUBLIC_BASE_URL: `http://${host.address}:${API_PORT}`,
    }, API_PORT).then((p) => { processes.push(p); return p; });
  };
  // Both at once on the empty database: one migrates it while the other waits (runtime/migrate.ts).
  [a, b] = await Promise.all([apiHost('api-a'), apiHost('api-b')]);
  db = createKnex(database.url, 4);
  console.log(`  hosts: api-a ${a.origin}, api-b ${b.origin}, PostgreSQL and ${redisUrl ? 'Redis' : 'no Redis'} at ${gateway}`);
}

t.after(async () => {
  await held?.lock.release().catch(() => {});
  await network?.shutdown();
  for (const f of forwards) await f.close();
  for (const dir of fileStores) rmSync(dir, { recursive: true, force: true });
  install?.remove();
  await db?.destroy();
  if (database) await dropDatabase(database.admin, database.name);
});

/** Drops the databases of earlier runs on this machine whose process is gone (mh_<pid>_...). */
async function dropCrashedRunsDatabases(admin: string): Promise<void> {
  const server = createKnex(admin, 1);
  try {
    const names: string[] = await server('pg_database').where('datname', 'like', 'mh\\_%').pluck('datname');
    for (const name of names) {
      const owner = Number(/^mh_(\d+)_/.exec(name)?.[1]);
      if (!owner || owner === process.pid || processAlive(owner)) continue;
      await dropDatabase(admin, name);
      console.log(`  dropped a crashed run's database ${name}`);
    }
  } finally {
    await server.destroy();
  }
}

/** The Redis the machine has: REDIS_URL, else the usual local one, if it answers. */
async function reachableRedis(): Promise<string | null> {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (ok: boolean) => { socket.destroy(); resolve(ok ? url : null); };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A request to one host, as the suite's harness sends one to its server. */
async function call<T = any>(origin: string, method: string, path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', 'api-version-date': o.version ?? VERSION, ...(o.headers ?? {}) };
  if (o.token) headers.authorization = o.token.startsWith('sk_') || o.token.startsWith('utok_') ? `Bearer ${o.token}` : o.token;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  let body: string | undefined;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${origin}/api/v1${path}${queryString(o.query)}`, { method, headers, body, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: json as T };
}

/** The suite's payment fixtures, sending to one host instead of the test's own server. */
const through = (host: { origin: string }) => ({
  db, url: `${host.origin}/api/v1`, request: ((method: string, path: string, o?: RequestOptions) => call(host.origin, method, path, o)) as TestApp['request'],
}) as TestApp;

/** Runs the test unless the machine cannot build the hosts; a failure shows the hosts' last output. */
function hostTest(name: string, body: () => Promise<void>) {
  t(name, async () => {
    if (unavailable) return skip(`${unavailable}: the multi-host deployment is not built`);
    try {
      await body();
    } catch (e) {
      for (const p of processes) console.log(`  ${p.output()}`);
      throw e;
    }
  });
}

const FINAL = ['succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded'];

hostTest('(1) a file uploaded through API host A (create, upload parts, complete) downloads through API host B', async () => {
  const o = await makeOwner(db);
  const parts = [randomBytes(6000), randomBytes(6000), randomBytes(777)];
  const size = parts.reduce((n, p) => n + p.length, 0);
  const created = await call(a.origin, 'POST', '/files', { token: o.key, body: { filename: 'report.pdf', parts: parts.length, size } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  for (const [i, part] of created.body.upload_parts.entries()) {
    assert.ok(part.upload_url.startsWith(a.origin), `part ${i + 1} uploads to host A: ${part.upload_url}`);
    const put = await fetch(part.upload_url, { method: 'PUT', body: parts[i] });
    assert.is(put.status, 200, `part ${i + 1}: ${await put.text()}`);
  }
  const done = await call(a.origin, 'POST', `/files/${created.body.id}/complete`, { token: o.key });
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.status, 'ready');

  const onB = await call(b.origin, 'GET', `/files/${created.body.id}`, { token: o.key });
  assert.is(onB.status, 200, JSON.stringify(onB.body));
  assert.is(onB.body.size, size);
  assert.ok(onB.body.url.startsWith(b.origin), `the download link is host B's: ${onB.body.url}`);
  const download = await fetch(onB.body.url);
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.is(download.status, 200, `GET ${onB.body.url} on host B -> ${download.status} ${bytes.toString().slice(0, 300)}`);
  assert.ok(bytes.equals(Buffer.concat(parts)), `host B served ${bytes.length} bytes, not the ${size} uploaded through host A`);
});

hostTest('(2) rate limit budgets are shared: what host A spent, host B counts, and a budget spent across both is refused by both', async () => {
  if (!redisUrl) return skip('no Redis at REDIS_URL or 127.0.0.1:6379, so budgets shared between hosts are not tested (each host keeps its own without it)');
  const o = await makeOwner(db);
  // Both hosts' Redis connections warmed on another credential, so that no request falls back to a host's memory.
  const warm = await makeOwner(db);
  for (const host of [a, b]) assert.is((await call(host.origin, 'GET', '/accounts/me', { token: warm.key })).status, 200);
  const read = (host: { origin: string }) => call(host.origin, 'GET', `/accounts/${o.accountId}`, { token: o.key });
  const burst = async (host: { origin: string }, n: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 10) statuses.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => read(host)))).map((r) => r.status));
    return statuses;
  };
  const half = READ_BUDGET / 2;
  assert.equal(await burst(a, half), Array(half).fill(200), 'host A serves half of the budget');
  const first = await read(b);
  assert.is(first.status, 200);
  assert.is(first.headers.get('ratelimit-policy'), `"read";q=${READ_BUDGET};w=${RATE_LIMIT_WINDOW_MULTIPLIER}`);
  assert.match(first.headers.get('ratelimit') ?? '', new RegExp(`^"read";r=${READ_BUDGET - half - 1};`), 'host B counts what host A spent');
  assert.equal(await burst(b, READ_BUDGET - half - 1), Array(READ_BUDGET - half - 1).fill(200), 'host B serves the rest');
  for (const host of [a, b]) {
    const refused = await read(host);
    assert.is(refused.status, 429, `${host === a ? 'A' : 'B'}: ${JSON.stringify(refused.body)}`);
    assert.is(refused.body.error.type, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
  }
});


async function createPayment(host: { origin: string }, amount: number): Promise<string> {
  const ctok = await makeToken(through(host), seller.clientId, CARDS.succeeds);
  const buyer = await makeUser(db);
  const res = await call(host.origin, 'POST', '/payments', {
    token: seller.key, idempotencyKey: `mh-${randomToken(10)}`,
    body: { account_id: seller.accountId, confirmation_token: ctok, user_id: buyer.id, amount, currency: 'usd' },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

const statusOn = async (host: { origin: string }, id: string) => {
  const res = await call(host.origin, 'GET', `/payments/${id}`, { token: seller.key });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.status as string;
};

const readiness = async (host: { origin: string }) => {
  const res = await fetch(`${host.origin}/ready`);
  return [res.status, (await res.json()).status];
};

/** Waits (reading the database: polling the API would spend the seller's read budget) until the payment is final. */
const finalInDatabase = (id: string, timeoutMs: number) => until(async () =>
  FINAL.includes((await db('payments').where({ id }).first('status')).status), `payment ${id} to be collected`, { timeoutMs, everyMs: 50 });

/** Charged once: one settlement entry of three postings, one payment.succeeded event, no job left. */
async function chargedOnce(id: string): Promise<void> {
  const postings = await postingsOf(db, seller.accountId).where({ entry_id: `${id}:settled` });
  assert.is(postings.length, 3, `settlement postings of ${id}`);
  const events = await db('events').where({ type: 'payment.succeeded' }).whereRaw("data->>'id' = ?", [id]);
  assert.is(events.length, 1, `payment.succeeded events of ${id}`);
  assert.is((await db('payment_fees').where({ payment_id: id })).length, 2, `fees of ${id}`);
  const jobs = Number((await db('graphile_worker.jobs').where({ key: `collect_payment:${id}` }).count({ n: '*' }))[0].n);
  assert.is(jobs, 0, `collect_payment jobs of ${id} left`);
}

hostTest('(3) a payment created through API host A is collected by the worker host (the API hosts run no worker)', async () => {
  seller = await makeSeller(db);
  const collected = await createPayment(a, 1500);
  // A second one, for (4): its row is held, so that the worker host's job on it waits mid-task.
  const longJob = await createPayment(a, 2500);
  held = { id: longJob, lock: await holdRowLock(db, 'payments', longJob) };
  await new Promise((r) => setTimeout(r, 1000));
  const before = await statusOn(b, collected);
  assert.ok(!FINAL.includes(before), `with no worker host up, the payment stays ${before}`);
  // No worker anywhere: each API host says so on GET /ready (its worker check), as a balancer would see it.
  assert.equal(await readiness(a), [503, 'not_ready']);

  workerOne = await startWorkerHost(network!.hosts.get('worker-1')!, install!.dir, hostEnv);
  processes.push(workerOne);
  await finalInDatabase(collected, 20_000);
  assert.is(await statusOn(b, collected), 'succeeded');
  assert.is(await statusOn(a, collected), 'succeeded');
  await chargedOnce(collected);
  for (const host of [a, b]) await until(async () => (await readiness(host))[0] === 200, 'both API hosts ready once a worker host beats');
});

hostTest('(4) the worker host killed (SIGKILL, the whole host) mid-job: another worker host finishes the job, once', async () => {
  assert.ok(held && workerOne, 'test (3) ran');
  const { id, lock } = held!;
  // The worker host's job waits on the held row: it is mid-task.
  await lock.waitForWaiters(1, 20_000);
  const [job] = await db('graphile_worker.jobs').where({ key: `collect_payment:${id}` }).select('locked_by');
  assert.ok(job?.locked_by, 'the worker host holds the job');
  killNamespaceProcesses(workerOne.host.namespace);
  const killedAt = Date.now();
  await lock.release();
  held = undefined;
  assert.ok(!FINAL.includes(await statusOn(a, id)), 'the killed host did not finish it');

  const workerTwo = await startWorkerHost(network!.hosts.get('worker-2')!, install!.dir, hostEnv);
  processes.push(workerTwo);
  await finalInDatabase(id, 30_000);
  assert.is(await statusOn(b, id), 'succeeded');
  console.log(`  the killed worker host's job finished on worker-2 ${Date.now() - killedAt} ms after the kill`);
  await chargedOnce(id);
});

hostTest('(5) a burst of creates across both API hosts: no error, every created object listed once on either host', async () => {
  const SELLERS = 8;
  const EACH = 30;
  const owners = await Promise.all(Array.from({ length: SELLERS }, () => makeOwner(db)));
  const creates = owners.flatMap((o) => Array.from({ length: EACH }, (_, i) => ({ o, title: `Load ${i} ${randomToken(6)}` })));
  creates.sort(() => Math.random() - 0.5);
  const failures: string[] = [];
  const created = new Map<string, string[]>(owners.map((o) => [o.accountId, []]));
  let next = 0;
  const started = Date.now();
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let i = next++; i < creates.length; i = next++) {
      const { o, title } = creates[i];
      const host = i % 2 === 0 ? a : b;
      try {
        const res = await call(host.origin, 'POST', '/products', { token: o.key, body: { account_id: o.accountId, title } });
        if (res.status === 201) created.get(o.accountId)!.push(res.body.id);
        else failures.push(`${host === a ? 'A' : 'B'} POST /products -> ${res.status} ${JSON.stringify(res.body)}`);
      } catch (e) {
        failures.push(`${host === a ? 'A' : 'B'} POST /products: ${(e as Error).message}`);
      }
    }
  }));
  const took = Date.now() - started;
  assert.equal(failures, [], failures.slice(0, 5).join('\n'));
  console.log(`  ${creates.length} creates across both API hosts in ${took} ms, no error`);

  for (const o of owners) {
    // Page 1 through one host, page 2 through the other: the cursor is the deployment's, not a host's.
    const listed: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const host = page % 2 === 0 ? a : b;
      const res = await call(host.origin, 'GET', '/products', { token: o.key, query: { account_id: o.accountId, first: 20, after } });
      assert.is(res.status, 200, JSON.stringify(res.body));
      listed.push(...res.body.data.map((p: { id: string }) => p.id));
      if (!res.body.page_info.has_next_page) break;
      after = res.body.page_info.end_cursor;
    }
    assert.is(new Set(listed).size, listed.length, 'no product listed twice');
    assert.equal([...listed].sort(), [...created.get(o.accountId)!].sort(), 'every created product listed, and nothing else');
  }
});

t.run();
