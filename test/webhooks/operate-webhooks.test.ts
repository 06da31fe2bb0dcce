// Webhooks an integrator can operate, over HTTP with a real receiver: resend one delivery (the same webhook-id),
// replay a range or since the last success (new deliveries, each event once, in order, throttled), rotate the
// secret with an overlap signed by both, and send test events; each listed with its attempts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, until, type Receiver } from './receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { verify } from '../../handlers/webhooks/delivery/signature.js';
import { v2 } from '../v2/support.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: resend, replay, secret rotation, test events');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

type Owner = Awaited<ReturnType<typeof makeOwner>>;

async function subscribe(o: Owner, body: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'], ...body },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

/** An account.updated event, fanned out. */
async function touch(o: Owner, title: string): Promise<void> {
  assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title } })).status, 200);
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
}

/** Runs the subscription's pending deliveries in the order they are due, as its queue would. */
async function runDue(webhookId: string): Promise<void> {
  const due = await app.db('webhook_deliveries').where({ webhook_id: webhookId, status: 'pending' }).orderBy([{ column: 'next_attempt_at' }, { column: 'id' }]).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
}

async function deliveries(o: Owner, webhookId: string, query: Record<string, string> = {}) {
  const res = await app.request('GET', `/webhooks/${webhookId}/deliveries`, { token: o.key, version: HEAD, query: { first: '100', ...query } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
}

const post = (o: Owner | { key: string }, path: string, body: unknown = {}, idempotencyKey?: string) =>
  app.request('POST', path, { token: o.key, version: HEAD, body, idempotencyKey });

function expectError(res: { status: number; body: any }, status: number, type: string, param?: string) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.type, type, JSON.stringify(res.body));
  if (param) assert.is(res.body.error.param, param, JSON.stringify(res.body));
}

t('a delivery is resent now as a new attempt with the same webhook-id, listed with both attempts', async () => {
  const o = await makeOwner(app.db, { title: 'Resend' });
  const hook = await subscribe(o);
  receiver.secret = hook.secret;
  receiver.received.length = 0;
  await touch(o, 'Resend 1');
  await runDue(hook.id);
  assert.is(receiver.received.length, 1);
  const [first] = await deliveries(o, hook.id);
  assert.is(first.status, 'succeeded');

  const resent = await post(o, `/webhooks/${hook.id}/deliveries/${first.id}/resend`, {}, `resend-${first.id}`);
  assert.is(resent.status, 200, JSON.stringify(resent.body));
  assert.is(resent.body.id, first.id);
  assert.is(resent.body.status, 'pending');
  assert.is(resent.body.attempts.length, 1, 'the attempts so far');
  // The same Idempotency-Key answers the same, and queues nothing more.
  const again = await post(o, `/webhooks/${hook.id}/deliveries/${first.id}/resend`, {}, `resend-${first.id}`);
  assert.is(again.status, 200);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  const jobs = await app.db('graphile_worker.jobs').where('key', `deliver:${first.id}`).count<{ count: string }[]>('* as count');
  assert.is(Number(jobs[0].count), 1, 'one job for the delivery, due now');

  await runDue(hook.id);
  assert.is(receiver.received.length, 2);
  assert.is(receiver.received[1].id, receiver.received[0].id, 'the same webhook-id: the receiver deduplicates');
  assert.is(receiver.received[1].json.id, receiver.received[0].json.id, 'the same event');
  assert.ok(receiver.received[1].verified);
  const [listed] = await deliveries(o, hook.id);
  assert.is(listed.id, first.id);
  assert.is(listed.status, 'succeeded');
  assert.is(listed.attempt_count, 2);
  assert.equal(listed.attempts.map((a: any) => a.attempt), [1, 2]);
});

t('resend: another subscription\'s delivery is a 404, a disabled subscription a 400, no webhook:manage a 403', async () => {
  const o = await makeOwner(app.db, { title: 'Resend rules' });
  const hook = await subscribe(o);
  const other = await subscribe(o);
  await touch(o, 'Resend rules 1');
  const [delivery] = await deliveries(o, hook.id);
  expectError(await post(o, `/webhooks/${other.id}/deliveries/${delivery.id}/resend`), 404, 'not_found', 'delivery_id');
  expectError(await post(o, `/webhooks/${hook.id}/deliveries/whdl_nope/resend`), 404, 'not_found', 'delivery_id');
  const moderator = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  expectError(await post({ key: moderator.secret }, `/webhooks/${hook.id}/deliveries/${delivery.id}/resend`), 403, 'permission_denied');
  const stranger = await makeOwner(app.db);
  expectError(await post(stranger, `/webhooks/${hook.id}/deliveries/${delivery.id}/resend`), 404, 'not_found');
  assert.is((await app.request('PATCH', `/webhooks/${hook.id}`, { token: o.key, version: HEAD, body: { enabled: false } })).status, 200);
  expectError(await post(o, `/webhooks/${hook.id}/deliveries/${delivery.id}/resend`), 400, 'invalid_state', 'id');
});

t('a replay sends each event of the range once, in order, as new deliveries throttled at per_second', async () => {
  const o = await makeOwner(app.db, { title: 'Replay' });
  const hook = await subscribe(o);
  receiver.secret = hook.secret;
  const before = await app.db.raw('select now() as now');
  for (const n of [1, 2, 3]) await touch(o, `Replay ${n}`);
  await runDue(hook.id);
  const original = await deliveries(o, hook.id);
  assert.is(original.length, 3);
  const eventsInOrder = original.map((d) => d.event_id).reverse(); // the list is newest first

  receiver.received.length = 0;
  const res = await post(o, `/webhooks/${hook.id}/replay`, { since: new Date(before.rows[0].now).toISOString(), per_second: 5 }, `replay-${hook.id}`);
  assert.is(res.status, 201, JSON.stringify(res.body));
  const replay = res.body;
  assert.match(replay.id, /^whrp_/);
  assert.is(replay.webhook_id, hook.id);
  assert.is(replay.event_count, 3);
  assert.is(replay.per_second, 5);
  assert.is(replay.status, 'running');
  const replayAgain = await post(o, `/webhooks/${hook.id}/replay`, { since: new Date(before.rows[0].now).toISOString(), per_second: 5 }, `replay-${hook.id}`);
  assert.is(replayAgain.body.id, replay.id, 'the same Idempotency-Key answers the same replay');

  const made = await deliveries(o, hook.id, { replay_id: replay.id });
  assert.is(made.length, 3);
  assert.ok(made.every((d) => d.replay_id === replay.id && d.status === 'pending' && !original.some((x) => x.id === d.id)));
  const due = [...made].sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at));
  assert.equal(due.map((d) => d.event_id), eventsInOrder, 'due in the events\' order');
  const gaps = due.slice(1).map((d, i) => new Date(d.next_attempt_at).getTime() - new Date(due[i].next_attempt_at).getTime());
  assert.equal(gaps, [200, 200], '5 a second');

  await runDue(hook.id);
  assert.equal(receiver.received.map((r) => r.json.id), eventsInOrder, 'each event once, in order');
  assert.ok(receiver.received.every((r) => r.verified));
  assert.equal(receiver.received.map((r) => r.id), due.map((d) => d.id), 'each a new delivery (a new webhook-id)');
  const done = await app.request('GET', `/webhook_replays/${replay.id}`, { token: o.key, version: HEAD });
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.status, 'completed');
  assert.is(done.body.succeeded_count, 3);
  assert.is(done.body.failed_count, 0);
  assert.is((await deliveries(o, hook.id)).length, 6, 'listed with the others');
});

t('since_last_success replays what followed the newest delivery that succeeded', async () => {
  const o = await makeOwner(app.db, { title: 'Since success' });
  const hook = await subscribe(o);
  receiver.secret = hook.secret;
  await touch(o, 'Since 1');
  await runDue(hook.id);
  receiver.respond.status = 503;
  try {
    await touch(o, 'Since 2');
    await touch(o, 'Since 3');
    await runDue(hook.id);
  } finally {
    receiver.respond.status = 200;
  }
  const failing = (await deliveries(o, hook.id)).filter((d) => d.attempts[0]?.response_status === 503).map((d) => d.event_id).reverse();
  assert.is(failing.length, 2);
  receiver.received.length = 0;
  const res = await post(o, `/webhooks/${hook.id}/replay`, { since_last_success: true });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.event_count, 2);
  assert.is(res.body.since_last_success, true);
  const made = await deliveries(o, hook.id, { replay_id: res.body.id });
  // made in one statement (one created_at): their order is their due times'
  const due = [...made].sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at));
  assert.equal(due.map((d) => d.event_id), failing);
});

t('replay: since or since_last_success (not both), until after since, events the subscription admits only', async () => {
  const o = await makeOwner(app.db, { title: 'Replay rules' });
  const hook = await subscribe(o, { events: ['payment.succeeded'] });
  expectError(await post(o, `/webhooks/${hook.id}/replay`, {}), 400, 'invalid_request', 'since');
  expectError(await post(o, `/webhooks/${hook.id}/replay`, { since: '2026-01-01T00:00:00Z', since_last_success: true }), 400, 'invalid_request', 'since');
  expectError(await post(o, `/webhooks/${hook.id}/replay`, { since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }), 400, 'invalid_request', 'until');
  await touch(o, 'Not a payment');
  const res = await post(o, `/webhooks/${hook.id}/replay`, { since: '2020-01-01T00:00:00Z' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.event_count, 0, 'account.updated is not among its events');
  assert.is(res.body.status, 'completed');
  const moderator = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  expectError(await post({ key: moderator.secret }, `/webhooks/${hook.id}/replay`, { since: '2020-01-01T00:00:00Z' }), 403, 'permission_denied');
});

t('rotating the secret: both sign during the overlap, then only the new one; overlap 0 stops the old at once', async () => {
  const o = await makeOwner(app.db, { title: 'Rotate' });
  const hook = await subscribe(o);
  const rotated = await post(o, `/webhooks/${hook.id}/rotate_secret`, { overlap_seconds: 2 });
  assert.is(rotated.status, 200, JSON.stringify(rotated.body));
  const secret: string = rotated.body.secret;
  assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  assert.is.not(secret, hook.secret);
  assert.ok(rotated.body.previous_secret_expires_at, 'until when the old secret signs');
  const shown = await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD });
  assert.is(shown.body.secret, null, 'the new secret is shown this once');
  assert.is(shown.body.previous_secret_expires_at, rotated.body.previous_secret_expires_at);

  receiver.received.length = 0;
  await touch(o, 'Rotate 1');
  await runDue(hook.id);
  const during = receiver.received[0];
  assert.is(during.signature.split(' ').length, 2);
  const headers = { id: during.id, timestamp: during.timestamp, signature: during.signature };
  assert.ok(verify(secret, headers, during.body), 'the new secret verifies');
  assert.ok(verify(hook.secret, headers, during.body), 'the old secret verifies');

  // After the overlap, reached through the product: GET says no previous secret signs any more.
  await until(async () => (await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD })).body.previous_secret_expires_at === null,
    'the overlap to end', 10_000);
  receiver.received.length = 0;
  await touch(o, 'Rotate 2');
  await runDue(hook.id);
  const after = receiver.received[0];
  const afterHeaders = { id: after.id, timestamp: after.timestamp, signature: after.signature };
  assert.is(after.signature.split(' ').length, 1);
  assert.ok(verify(secret, afterHeaders, after.body));
  assert.not.ok(verify(hook.secret, afterHeaders, after.body), 'the old secret stopped');

  const now = await post(o, `/webhooks/${hook.id}/rotate_secret`, { overlap_seconds: 0 });
  assert.is(now.status, 200);
  assert.is(now.body.previous_secret_expires_at, null);
  receiver.received.length = 0;
  await touch(o, 'Rotate 3');
  await runDue(hook.id);
  const last = receiver.received[0];
  assert.ok(verify(now.body.secret, { id: last.id, timestamp: last.timestamp, signature: last.signature }, last.body));
  assert.not.ok(verify(secret, { id: last.id, timestamp: last.timestamp, signature: last.signature }, last.body));

  expectError(await post(o, `/webhooks/${hook.id}/rotate_secret`, { overlap_seconds: 604801 }), 400, 'invalid_request', 'overlap_seconds');
  const moderator = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  expectError(await post({ key: moderator.secret }, `/webhooks/${hook.id}/rotate_secret`), 403, 'permission_denied');
});

t('a test event of a type the subscription receives is sample data marked test, rendered at its pin and listed', async () => {
  const o = await makeOwner(app.db, { title: 'Test events' });
  const hook = await subscribe(o, { events: ['payment.succeeded', 'account.updated'], api_version_date: '2026-08-07' });
  const shown = await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD });
  assert.equal(shown.body.testable_events, ['payment.succeeded', 'account.updated']);
  receiver.secret = hook.secret;
  receiver.received.length = 0;
  const res = await post(o, `/webhooks/${hook.id}/test`, { event: 'payment.succeeded' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.test, true);
  assert.is(res.body.event_type, 'payment.succeeded');
  assert.is(res.body.status, 'pending');
  await runDue(hook.id);
  assert.is(receiver.received.length, 1);
  const got = receiver.received[0];
  assert.ok(got.verified);
  assert.is(got.id, res.body.id);
  assert.is(got.json.test, true);
  assert.is(got.json.type, 'payment.succeeded');
  assert.is(got.json.company_id, o.accountId, 'the envelope at its pin (before 2026-08-14: company_id)');
  assert.is(got.json.data.id, 'pay_test');
  const [listed] = await deliveries(o, hook.id);
  assert.is(listed.id, res.body.id);
  assert.is(listed.test, true);
  assert.is(listed.status, 'succeeded');
  assert.is(listed.attempts.length, 1);

  // A real event is not marked; the sample event goes to no other subscription and is never replayed.
  const other = await subscribe(o, { events: ['payment.succeeded'] });
  const replay = await post(o, `/webhooks/${other.id}/replay`, { since: '2020-01-01T00:00:00Z' });
  assert.is(replay.body.event_count, 0);
  receiver.received.length = 0;
  await touch(o, 'Not a test');
  await runDue(hook.id);
  assert.is(receiver.received[0].json.test, undefined);

  expectError(await post(o, `/webhooks/${hook.id}/test`, { event: 'refund.created' }), 400, 'invalid_request', 'event');
  expectError(await post(o, `/webhooks/${hook.id}/test`, { event: 'no.such_event' }), 400, 'invalid_request', 'event');
});

t('a test event of every event type in the catalogue is delivered unpinned, at the head and in the v2 format', async () => {
  const o = await makeOwner(app.db, { title: 'Every test event' });
  const hook = await subscribe(o, { events: undefined });
  const unpinned = (await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD })).body;
  const pinned = await subscribe(o, { events: undefined, api_version_date: HEAD });
  const legacy = await v2(app, 'POST', '/webhooks', { token: o.key, body: { company_id: o.accountId, url: receiver.url } });
  assert.is(legacy.status, 201, JSON.stringify(legacy.body));
  assert.equal(legacy.body.api_version, 'v2');
  receiver.secret = hook.secret;
  for (const event of unpinned.testable_events as string[]) {
    receiver.received.length = 0;
    for (const id of [hook.id, pinned.id, legacy.body.id]) {
      const res = await post(o, `/webhooks/${id}/test`, { event });
      assert.is(res.status, 201, `${event}: ${JSON.stringify(res.body)}`);
      await runDue(id);
    }
    assert.is(receiver.received.length, 3, event);
    assert.ok(receiver.received.every((r) => (r.json.type ?? r.json.action) === event && r.json.test === true), event);
  }
});

t.run();
