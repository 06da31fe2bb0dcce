// Webhook delivery over loopback: signed, rendered at each subscription's pin, retried, listed, and robust to a
// worker killed mid-burst.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, startReceiver, until, type Receiver } from './receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { RETRY_SCHEDULE_SECONDS, retryDelaySeconds } from '../../handlers/webhooks/delivery/retry-schedule.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { sweepDeliveries } from '../../handlers/webhooks/delivery/sweep-task.js';
import { taskList } from '../../wiring/tasks.js';
import { startWorker } from '../../runtime/worker.js';
import { startWorkerProcess } from '../helpers/processes.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: delivery');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

async function subscribe(o: { key: string; accountId: string }, pin: string | null, events = ['account.updated']) {
  const res = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD,
    body: { account_id: o.accountId, url: receiver.url, events, ...(pin ? { api_version_date: pin } : {}) },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

/** Runs the jobs the request queued (dispatch, then deliveries), as the worker would. */
async function runQueued(): Promise<void> {
  const events = await app.db('events').whereNull('dispatched_at').pluck('id');
  for (const id of events) await dispatchEvent(app.db, id);
  const deliveries = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of deliveries) await deliverWebhook(app.db, id);
}

t('a delivery is signed and its payload rendered at each subscription\'s pin, with the envelope key of that pin', async () => {
  const o = await makeOwner(app.db, { title: 'Hooked' });
  // industry_type is writable before 2026-09-06 only; its event is dispatched before anyone subscribes.
  const industry = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: '2026-09-02', body: { industry_type: 'gaming' } });
  assert.is(industry.status, 200, JSON.stringify(industry.body));
  await runQueued();
  const latest = await subscribe(o, HEAD);
  const old = await subscribe(o, '2026-08-07');
  const boundary = await subscribe(o, '2026-08-14');
  const unpinned = await subscribe(o, null);
  receiver.secret = latest.secret;
  receiver.received.length = 0;
  assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Hooked 2' } })).status, 200);
  await runQueued();
  assert.is(receiver.received.length, 4);
  const byHook = async (id: string) => {
    const delivery = await app.db('webhook_deliveries').where({ webhook_id: id }).first();
    return receiver.received.find((r) => r.id === delivery.id)!;
  };
  const head = await byHook(latest.id);
  assert.ok(head.verified, 'the signature verifies with the subscription secret');
  assert.match(head.signature, /^v1,[A-Za-z0-9+/]+=*$/);
  assert.is(head.json.type, 'account.updated');
  assert.is(head.json.account_id, o.accountId);
  assert.not.ok('company_id' in head.json);
  assert.is(head.json.data.title, 'Hooked 2');
  assert.not.ok('industry_group' in head.json.data);
  assert.ok('in_transit' in head.json.data.balance);
  const mid = await byHook(old.id);
  assert.is(mid.json.account_id, undefined);
  assert.is(mid.json.company_id, o.accountId);
  assert.is(mid.json.data.industry_group, 'gaming');
  assert.ok('in_transit' in mid.json.data.balance);
  // #41: the envelope names the account account_id from 2026-08-14 on, company_id before.
  const at41 = await byHook(boundary.id);
  assert.is(at41.json.account_id, o.accountId);
  assert.not.ok('company_id' in at41.json);
  const earliest = await byHook(unpinned.id);
  assert.is(earliest.json.api_version_date, null);
  assert.is(earliest.json.company_id, o.accountId);
  assert.not.ok('in_transit' in earliest.json.data.balance);
  assert.ok('parent_account_id' in earliest.json.data);
  // Someone else's secret does not verify.
  receiver.secret = unpinned.secret;
  assert.ok(receiver.received.filter((r) => r.id === earliest.id).every((r) => r.json));
});

t('events nobody subscribed to, and other accounts\' events, are not delivered', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  await subscribe(o, HEAD, ['account.created']);
  receiver.received.length = 0;
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'No one listens' } });
  await app.request('PATCH', `/accounts/${other.accountId}`, { token: other.key, version: HEAD, body: { title: 'Not mine' } });
  await runQueued();
  assert.is(receiver.received.length, 0);
});

t('a failed attempt is recorded and retried with backoff; every attempt is listed', async () => {
  const o = await makeOwner(app.db);
  const hook = await subscribe(o, HEAD);
  receiver.respond = { status: 500, delayMs: 0 };
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Flaky' } });
  await runQueued();
  const pending = await app.db('webhook_deliveries').where({ webhook_id: hook.id }).first();
  assert.is(pending.status, 'pending');
  assert.is(pending.attempts, 1);
  const wait = (Date.parse(pending.next_attempt_at) - Date.now()) / 1000;
  // The schedule's first step, within its jitter, the same for this delivery every time.
  const scheduled = retryDelaySeconds(pending.id, 1)!;
  assert.ok(scheduled >= RETRY_SCHEDULE_SECONDS[0] * 0.9 && scheduled <= RETRY_SCHEDULE_SECONDS[0] * 1.1, String(scheduled));
  assert.ok(wait > scheduled - 5 && wait <= scheduled, String(wait));
  const job = await app.db.raw("select run_at from graphile_worker._private_jobs where key = ?", [`deliver:${pending.id}`]);
  assert.is(job.rows.length, 1, 'the retry is scheduled as a job');
  receiver.respond = { status: 204, delayMs: 0 };
  assert.is(await deliverWebhook(app.db, pending.id), 'succeeded');
  assert.is(await deliverWebhook(app.db, pending.id), 'skipped', 'a delivered webhook is not sent again');
  const list = await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: o.key, version: HEAD });
  assert.is(list.status, 200);
  const [d] = list.body.data;
  assert.is(d.status, 'succeeded');
  assert.is(d.event_type, 'account.updated');
  assert.equal(d.attempts.map((a: any) => [a.attempt, a.response_status, a.error]), [[1, 500, 'HTTP 500'], [2, 204, null]]);
  const failedOnly = await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: o.key, version: HEAD, query: { status: 'failed' } });
  assert.is(failedOnly.body.data.length, 0);
  // event_type is the delivered event's type; an empty one narrows nothing
  const byType = async (type: string) => (await app.request('GET', `/webhooks/${hook.id}/deliveries`,
    { token: o.key, version: HEAD, query: { event_type: type } })).body.data.map((x: any) => x.id);
  assert.equal(await byType('account.updated'), [d.id]);
  assert.equal(await byType('account.created'), []);
  assert.equal(await byType(''), [d.id]);
  const stranger = await makeOwner(app.db);
  assert.is((await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: stranger.key, version: HEAD })).status, 404);
});

t('after the last retry the delivery fails; an unreachable receiver is an attempt with its error', async () => {
  const o = await makeOwner(app.db);
  const hook = await subscribe(o, HEAD);
  const closed = await startReceiver();
  const closedUrl = closed.url;
  await closed.close(); // a port nothing listens on any more
  const moved = await app.request('PATCH', `/webhooks/${hook.id}`, { token: o.key, version: HEAD, body: { url: closedUrl } });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Nobody home' } });
  await runQueued();
  const delivery = await app.db('webhook_deliveries').where({ webhook_id: hook.id }).first();
  for (let i = 1; i < RETRY_SCHEDULE_SECONDS.length + 1; i++) {
    await app.db('webhook_deliveries').where({ id: delivery.id }).update({ status: 'pending' }); // sql-state-write: each retry falls due minutes to hours later; making it due now stands in for waiting out the backoff
    await deliverWebhook(app.db, delivery.id);
  }
  const done = await app.db('webhook_deliveries').where({ id: delivery.id }).first();
  assert.is(done.status, 'failed');
  assert.is(done.attempts, RETRY_SCHEDULE_SECONDS.length + 1);
  const attempts = await app.db('webhook_delivery_attempts').where({ delivery_id: delivery.id });
  assert.ok(attempts.every((a) => a.response_status === null && a.error === 'ECONNREFUSED'), JSON.stringify(attempts));
});

t('a worker killed in the middle of a delivery burst loses nothing: every event still arrives', async () => {
  const o = await makeOwner(app.db);
  const hook = await subscribe(o, HEAD);
  receiver.secret = hook.secret;
  receiver.received.length = 0;
  receiver.respond = { status: 200, delayMs: 150 };
  const burst = 16;
  for (let i = 0; i < burst; i++) {
    await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: `Burst ${i}` } });
  }
  const eventIds = await app.db('events').where({ account_id: o.accountId, type: 'account.updated' }).pluck('id');
  assert.is(eventIds.length, burst);

  const child = await startWorkerProcess(app.databaseUrl);
  await until(() => receiver.received.length >= 3, 'the first deliveries');
  await child.kill('SIGKILL');
  const arrivedBefore = new Set(receiver.received.map((r) => r.json.id)).size;
  assert.ok(arrivedBefore < burst, `the kill came mid-burst (${arrivedBefore} of ${burst} had arrived)`);
  const held = await app.db('graphile_worker.jobs').where({ locked_by: child.workerId }).count({ n: '*' });
  assert.ok(Number(held[0].n) > 0, 'the dead worker held jobs');

  // A new worker starts. No sweep runs: the dead worker's heartbeat runs out, its jobs are released and run again,
  // and each delivery it was sending is taken back by its own job.
  const worker = await startWorker({
    databaseUrl: app.databaseUrl, tasks: taskList(app.db), logger: pino({ level: 'silent' }), pollInterval: 50,
    liveness: { heartbeatMs: 250, deadAfterMs: 2000 },
  });
  try {
    receiver.respond = { status: 200, delayMs: 0 };
    const succeeded = async () => Number((await app.db('webhook_deliveries').where({ webhook_id: hook.id, status: 'succeeded' }).count({ n: '*' }))[0].n);
    await until(async () => (await succeeded()) === burst, 'every delivery to succeed', 30_000);
  } finally {
    await worker.stop();
  }
  const arrived = new Set(receiver.received.filter((r) => r.verified).map((r) => r.json.id));
  assert.equal([...arrived].sort(), [...eventIds].sort());
});

t('the sweep (a safety net) gives a job back to an event and a delivery whose jobs are gone', async () => {
  const o = await makeOwner(app.db);
  const hook = await subscribe(o, HEAD);
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Lost jobs' } });
  const [event] = await app.db('events').where({ account_id: o.accountId, type: 'account.updated' }).pluck('id');
  await dispatchEvent(app.db, event);
  const delivery = await app.db('webhook_deliveries').where({ webhook_id: hook.id }).first('id');
  const jobs = (key: string) => app.db('graphile_worker.jobs').where({ key }).count({ n: '*' }).then((r) => Number(r[0].n));
  await app.db.raw('delete from graphile_worker._private_jobs where key = ?', [`deliver:${delivery.id}`]);
  await app.db('events').where({ id: event }).update({ dispatched_at: null }); // sql-state-write: a dispatch lost with its job (a crash between them) is the state the sweep exists for; the product never makes it on purpose
  await app.db.raw('delete from graphile_worker._private_jobs where key = ?', [`dispatch:${event}`]);
  await sweepDeliveries(app.db); // within the grace period: nothing yet
  assert.equal([await jobs(`deliver:${delivery.id}`), await jobs(`dispatch:${event}`)], [0, 0]);
  await sweepDeliveries(app.db, new Date(Date.now() + 120_000));
  assert.equal([await jobs(`deliver:${delivery.id}`), await jobs(`dispatch:${event}`)], [1, 1]);
});

t.run();
