// GET /metrics over HTTP: requests by operation id, version and status class, latency per operation, idempotent
// replays, background jobs and webhook deliveries from the database; bounded labels; the METRICS_TOKEN guard.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { parseMetrics, valueOf } from './metrics-text.js';

const HEAD = '2026-09-06';
const t = suite('ops: metrics');
let app: TestApp;
let origin: string;
t.before(async () => {
  app = await startTestApp();
  origin = app.server.url;
});
t.after(async () => { await app.close(); });

async function scrape(base = origin, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, samples: res.status === 200 ? parseMetrics(text) : [] };
}

t('requests are counted by operation id, resolved version and status class; latency is a histogram per operation', async () => {
  const o = await makeOwner(app.db);
  const before = (await scrape()).samples;
  for (let i = 0; i < 3; i++) assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key, version: HEAD })).status, 200);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key, version: '2025-01-01' })).status, 200);
  assert.is((await app.request('GET', '/accounts/biz_doesnotexist', { token: o.key, version: HEAD })).status, 404);
  const res = await scrape();
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'text/plain');
  const delta = (labels: Record<string, string>, name = 'http_requests_total') => valueOf(res.samples, name, labels) - valueOf(before, name, labels);
  assert.is(delta({ operation: 'retrieveAccount', version: HEAD, status_class: '2xx' }), 3);
  assert.is(delta({ operation: 'retrieveAccount', version: '2025-01-01', status_class: '2xx' }), 1);
  assert.is(delta({ operation: 'retrieveAccount', version: HEAD, status_class: '4xx' }), 1);
  assert.is(delta({ operation: 'retrieveAccount' }, 'http_request_duration_seconds_count'), 5);
  assert.ok(delta({ operation: 'retrieveAccount' }, 'http_request_duration_seconds_sum') > 0);
  const buckets = res.samples.filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.operation === 'retrieveAccount');
  assert.ok(buckets.some((b) => b.labels.le === '+Inf'));
  // A request refused before authentication has no version.
  assert.is((await app.request('GET', `/accounts/${o.accountId}`)).status, 401);
  assert.is(valueOf((await scrape()).samples, 'http_requests_total', { operation: 'retrieveAccount', version: 'none', status_class: '4xx' }), 1);
});

t('labels stay bounded: unknown paths are "unknown", never the path; routes outside the API by their pattern', async () => {
  const odd = `nothing_here_${Date.now()}`;
  assert.is((await fetch(`${app.url}/${odd}`)).status, 404);
  assert.is((await fetch(`${origin}/${odd}`)).status, 404);
  assert.is((await fetch(`${app.url}/accounts`, { method: 'PUT' })).status, 405);
  assert.is((await fetch(`${origin}/receipts/${odd}.pdf`)).status, 404);
  assert.is((await fetch(`${origin}/health`)).status, 200);
  const { text, samples } = await scrape();
  assert.not.match(text, odd);
  assert.ok(valueOf(samples, 'http_requests_total', { operation: 'unknown', version: 'none', status_class: '4xx' }) >= 3);
  assert.is(valueOf(samples, 'http_requests_total', { operation: 'GET /receipts/:file', status_class: '4xx' }), 1);
  assert.ok(valueOf(samples, 'http_requests_total', { operation: 'health', status_class: '2xx' }) >= 1);
  const operationsSeen = new Set(samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.operation));
  const known = new Set([...operations.map((op) => op.id), 'unknown', 'health', 'ready', 'metrics', 'openapi']);
  for (const label of operationsSeen) assert.ok(known.has(label) || /^(GET|POST) \//.test(label), `unexpected operation label ${label}`);
});

t('an Idempotency-Key replay is counted under its operation', async () => {
  const o = await makeOwner(app.db);
  const body = { account_id: o.accountId, url: 'https://example.com/hook', events: ['account.updated'] };
  const first = await app.request('POST', '/webhooks', { token: o.key, version: HEAD, body, idempotencyKey: 'metrics-replay-1' });
  const again = await app.request('POST', '/webhooks', { token: o.key, version: HEAD, body, idempotencyKey: 'metrics-replay-1' });
  assert.is(first.status, 201);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  const { samples } = await scrape();
  assert.is(valueOf(samples, 'http_idempotent_replays_total', { operation: 'createWebhook' }), 1);
  assert.is(valueOf(samples, 'http_requests_total', { operation: 'createWebhook', status_class: '2xx' }), 2);
});

t('background jobs by state and the age of the oldest due job, read from graphile-worker\'s tables', async () => {
  const before = (await scrape()).samples;
  const jobs = (state: string, samples = before) => valueOf(samples, 'background_jobs', { state });
  // A task no worker knows stays where it is put (and this server runs no worker).
  const add = (runAt: string) => app.db.raw(`select (graphile_worker.add_job('metrics_probe', '{}'::json, run_at := ${runAt})).id`);
  await add("now() - interval '90 seconds'");
  await add("now() - interval '5 seconds'");
  await add("now() + interval '1 hour'");
  const running = (await add("now() - interval '1 second'")).rows[0].id as string;
  const failed = (await add("now() - interval '1 second'")).rows[0].id as string;
  await app.db.raw("update graphile_worker._private_jobs set locked_at = now(), locked_by = 'metrics-test' where id = ?", [running]);
  await app.db.raw('update graphile_worker._private_jobs set attempts = max_attempts where id = ?', [failed]);
  const { samples } = await scrape();
  assert.is(jobs('queued', samples) - jobs('queued'), 2);
  assert.is(jobs('scheduled', samples) - jobs('scheduled'), 1);
  assert.is(jobs('running', samples) - jobs('running'), 1);
  assert.is(jobs('failed', samples) - jobs('failed'), 1);
  const oldest = valueOf(samples, 'background_jobs_oldest_queued_age_seconds');
  assert.ok(oldest >= 89 && oldest < 200, `oldest queued job's age: ${oldest}`);
  await app.db.raw("delete from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = 'metrics_probe')");
});

t('webhook deliveries by outcome', async () => {
  const happy: Receiver = await startReceiver();
  const failing: Receiver = await startReceiver();
  failing.respond.status = 500;
  try {
    const o = await makeOwner(app.db);
    for (const url of [happy.url, failing.url]) {
      const res = await app.request('POST', '/webhooks', { token: o.key, version: HEAD, body: { account_id: o.accountId, url, events: ['account.updated'] } });
      assert.is(res.status, 201);
    }
    const before = (await scrape()).samples;
    assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Counted' } })).status, 200);
    // The worker's steps, run here: fan the event out, then attempt each delivery once.
    for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
    const deliveries = await app.db('webhook_deliveries').join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .where('webhooks.account_id', o.accountId).pluck('webhook_deliveries.id');
    for (const id of deliveries) await deliverWebhook(app.db, id);
    const { samples } = await scrape();
    const delta = (status: string) => valueOf(samples, 'webhook_deliveries', { status }) - valueOf(before, 'webhook_deliveries', { status });
    assert.is(delta('succeeded'), 1);
    assert.is(delta('pending'), 1, 'the failed attempt waits for its retry');
    assert.ok(samples.some((s) => s.name === 'webhook_deliveries' && s.labels.status === 'failed'), 'every status is reported, zero included');
  } finally {
    await happy.close();
    await failing.close();
  }
});

t('with a token set, /metrics needs it as a Bearer credential', async () => {
  const server = await startServer({
    db: app.db, databaseUrl: '', operations, tasks: {}, port: 0, worker: false, logger: pino({ level: 'silent' }),
    metrics: { token: 'scrape-secret' },
  });
  try {
    const none = await scrape(server.url);
    assert.is(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', 'Bearer');
    assert.is((await scrape(server.url, { authorization: 'Bearer wrong' })).status, 401);
    const ok = await scrape(server.url, { authorization: 'Bearer scrape-secret' });
    assert.is(ok.status, 200);
    assert.ok(valueOf(ok.samples, 'http_requests_total', { operation: 'metrics', status_class: '4xx' }) >= 2);
  } finally {
    await server.close();
  }
});

t.run();
