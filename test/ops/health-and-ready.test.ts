// GET /health and GET /ready over HTTP: without credentials; ready only with the database, its migrations and a
// beating worker, and no longer ready once the server has begun shutting down.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import knexFactory from 'knex';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { taskList } from '../../wiring/tasks.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('ops: health and readiness');
let app: TestApp;
const silent = pino({ level: 'silent' });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const origin = (server: RunningServer) => server.url;
const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: await res.json() as any };
};

/** /ready polled until it answers `status` (a worker's first beat lands just after it starts); the bound only ends
 * a wait that would never end, so it is far beyond what a loaded machine takes. */
async function readyUntil(base: string, status: number, withinMs = 30_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const res = await get(`${base}/ready`);
    if (res.status === status || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}

t('GET /health answers 200 without credentials, never cached', async () => {
  const res = await get(`${origin(app.server)}/health`);
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'ok' });
  assert.is(res.headers.get('cache-control'), 'no-store');
});

t('GET /ready is 503 without a beating worker, naming the failed check; 200 once a worker beats', async () => {
  // The harness's server runs no worker, and this database has no other.
  const res = await get(`${origin(app.server)}/ready`);
  assert.is(res.status, 503);
  assert.is(res.body.status, 'not_ready');
  assert.is(res.body.checks.database, 'ok');
  assert.is(res.body.checks.migrations, 'ok');
  assert.is(res.body.checks.shutdown, 'ok');
  assert.match(res.body.checks.worker, 'no worker has beaten recently');

  const withWorker = await startServer({ db: app.db, databaseUrl: app.databaseUrl, operations, tasks: taskList(app.db), port: 0, logger: silent });
  try {
    const ready = await readyUntil(origin(withWorker), 200);
    assert.is(ready.status, 200, JSON.stringify(ready.body));
    assert.equal(ready.body, { status: 'ready', checks: { shutdown: 'ok', database: 'ok', migrations: 'ok', worker: 'ok' } });
    // The worker lives in another server, yet this one is ready too: any worker on the database does the jobs.
    assert.is((await get(`${origin(app.server)}/ready`)).status, 200);
  } finally {
    await withWorker.close();
  }
});

t('a migration missing from the database makes /ready 503 naming it', async () => {
  const [last] = await app.db('knex_migrations').orderBy('id', 'desc').limit(1);
  await app.db('knex_migrations').where({ id: last.id }).delete();
  const server = await startServer({ db: app.db, databaseUrl: '', operations, tasks: {}, port: 0, worker: false, logger: silent });
  try {
    const res = await get(`${origin(server)}/ready`);
    assert.is(res.status, 503);
    assert.match(res.body.checks.migrations, last.name);
  } finally {
    await server.close();
    await app.db('knex_migrations').insert(last);
  }
});

t('an unreachable database makes /ready 503 while /health still answers', async () => {
  // knex reports each refused connection on the console; the test expects them.
  const quiet = () => {};
  const nowhere = knexFactory({ client: 'pg', connection: 'postgres://nobody@127.0.0.1:1/none', pool: { min: 0, max: 1 },
    log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet } });
  const server = await startServer({ db: nowhere, databaseUrl: '', operations, tasks: {}, port: 0, worker: false, logger: silent });
  try {
    const res = await get(`${origin(server)}/ready`);
    assert.is(res.status, 503);
    assert.is.not(res.body.checks.database, 'ok');
    assert.is.not(res.body.checks.worker, 'ok');
    assert.is((await get(`${origin(server)}/health`)).status, 200);
  } finally {
    await server.close();
    await nowhere.destroy();
  }
});

t('once close() begins, /ready answers 503 (shutdown) until the server stops accepting; /health stays 200', async () => {
  const server = await startServer({
    db: app.db, databaseUrl: app.databaseUrl, operations, tasks: taskList(app.db), port: 0, logger: silent, unreadyBeforeCloseMs: 600,
  });
  const base = origin(server);
  assert.is((await readyUntil(base, 200)).status, 200);
  const closing = server.close();
  const res = await get(`${base}/ready`);
  assert.is(res.status, 503);
  assert.match(res.body.checks.shutdown, 'shutting down');
  assert.is(res.body.checks.database, 'ok');
  assert.is((await get(`${base}/health`)).status, 200);
  await closing;
  const refused = await fetch(`${base}/health`).then(() => 'answered', () => 'refused');
  assert.is(refused, 'refused');
});

t('a process\'s first probes answer as text: they do not load Node\'s fetch (a JSON object body would, ~10-40 ms)', async () => {
  // Koa asks whether an object body is a fetch Response, which loads undici on Node 20; a load balancer's first probe
  // of a new process then waited for it. In a process of its own, so that nothing else loaded fetch first.
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/ops/fixtures/first-probes.ts')],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: app.databaseUrl, LOG_LEVEL: 'silent' } });
  const { statuses, responseReads } = JSON.parse(stdout.trim().split('\n').pop()!);
  assert.equal(statuses, [200, 503], 'health answers; ready says not ready (no worker beats here)');
  assert.is(responseReads, 0, 'answering /health and /ready asked nothing of fetch');
});

t.run();
