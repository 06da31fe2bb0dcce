// What a receiver's answer does to a delivery's retries (spec/api.yaml webhook_delivery): the declared schedule
// reaching about 3 days with a deterministic jitter, Retry-After on 429 and 503 (longer than the step: heeded, at most
// a day; shorter: the step), and 410 Gone, which fails the delivery at once and disables the subscription: its reason
// and time on it, a webhook.disabled event (delivered to the account's other subscriptions), a notification to the
// account's team; later events are listed failed without a send; PATCH enabled true turns it back on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, startReceiver, type Receiver } from './receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { RETRY_SCHEDULE_SECONDS, retryDelaySeconds } from '../../handlers/webhooks/delivery/retry-schedule.js';
import { specData } from '../../generated/spec-data.js';

const HEAD = '2026-09-06';
const DAY = 86_400;
const t = suite('webhooks: retries over days, Retry-After and 410 Gone');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

type Owner = Awaited<ReturnType<typeof makeOwner>>;

async function subscribe(o: Owner, url: string, events = ['account.updated']) {
  const res = await app.request('POST', '/webhooks', { token: o.key, version: HEAD, body: { account_id: o.accountId, url, events } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

/** Runs the jobs requests queued (dispatch, then the deliveries due), as the worker would. */
async function runQueued(): Promise<void> {
  for (const id of await app.db('events').whereNull('dispatched_at').orderBy('created_at').pluck('id')) await dispatchEvent(app.db, id);
  const due = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
}

const touch = (o: Owner, title: string) => app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title } });
const deliveries = async (o: Owner, hookId: string) => {
  const res = await app.request('GET', `/webhooks/${hookId}/deliveries`, { token: o.key, version: HEAD });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
};
/** Seconds from now until the delivery's next attempt. */
const waitOf = (d: { next_attempt_at: string }) => (Date.parse(d.next_attempt_at) - Date.now()) / 1000;

t('the declared schedule reaches about 3 days, each wait within its jitter and the same for a delivery every time', () => {
  assert.equal([...RETRY_SCHEDULE_SECONDS], [...specData.webhookDelivery.retryScheduleSeconds]);
  const total = RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
  assert.ok(total >= 3 * DAY && total <= 3.5 * DAY, `${total / DAY} days`);
  for (let attempt = 1; attempt <= RETRY_SCHEDULE_SECONDS.length; attempt++) {
    const step = RETRY_SCHEDULE_SECONDS[attempt - 1];
    const waits = ['whdl_a', 'whdl_b', 'whdl_c', 'whdl_d'].map((id) => retryDelaySeconds(id, attempt)!);
    for (const w of waits) assert.ok(w >= Math.floor(step * 0.9) && w <= Math.ceil(step * 1.1), `${w} for a step of ${step}`);
    assert.is(retryDelaySeconds('whdl_a', attempt), waits[0], 'deterministic');
  }
  assert.ok(new Set(['whdl_a', 'whdl_b', 'whdl_c', 'whdl_d'].map((id) => retryDelaySeconds(id, 10))).size > 1, 'spread across deliveries');
  assert.is(retryDelaySeconds('whdl_a', RETRY_SCHEDULE_SECONDS.length + 1), null, 'no retry after the last');
});

t('Retry-After on 429 and 503 is heeded when longer than the step (capped at a day); a shorter one keeps the step', async () => {
  const o = await makeOwner(app.db);
  const hook = await subscribe(o, receiver.url);
  receiver.respond = { status: 429, delayMs: 0, headers: { 'retry-after': '3600' } };
  await touch(o, 'Busy');
  await runQueued();
  const [first] = await deliveries(o, hook.id);
  assert.is(first.status, 'pending');
  assert.ok(Math.abs(waitOf(first) - 3600) < 10, `429 Retry-After 3600: ${waitOf(first)}`);
  assert.equal(first.attempts.map((a: any) => a.response_status), [429]);

  // An HTTP date two days on asks for more than the cap: a day.
  receiver.respond = { status: 503, delayMs: 0, headers: { 'retry-after': new Date(Date.now() + 2 * DAY * 1000).toUTCString() } };
  assert.is(await deliverWebhook(app.db, first.id), 'retrying');
  const [second] = await deliveries(o, hook.id);
  assert.ok(Math.abs(waitOf(second) - DAY) < 10, `503 Retry-After in 2 days, capped: ${waitOf(second)}`);

  // Shorter than the step (the third step is 10 minutes): the step.
  receiver.respond = { status: 503, delayMs: 0, headers: { 'retry-after': '1' } };
  assert.is(await deliverWebhook(app.db, first.id), 'retrying');
  const [third] = await deliveries(o, hook.id);
  const step = retryDelaySeconds(first.id, 3)!;
  assert.ok(waitOf(third) > step - 10 && waitOf(third) <= step, `Retry-After 1 s against a step of ${step}: ${waitOf(third)}`);

  // Retry-After on another status (a 500) is not a request to wait.
  receiver.respond = { status: 500, delayMs: 0, headers: { 'retry-after': '7200' } };
  assert.is(await deliverWebhook(app.db, first.id), 'retrying');
  const [fourth] = await deliveries(o, hook.id);
  const fourthStep = retryDelaySeconds(first.id, 4)!;
  assert.ok(waitOf(fourth) > fourthStep - 10 && waitOf(fourth) <= fourthStep, `500 with Retry-After: ${waitOf(fourth)}`);
  assert.is(fourth.attempt_count, 4);
  receiver.respond = { status: 200, delayMs: 0 };
  assert.is(await deliverWebhook(app.db, first.id), 'succeeded');
  const after = await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD });
  assert.is(after.body.enabled, true, 'failures that end in a success disable nothing');
});

t('410 Gone stops at once and disables the subscription, with its event and a notification; PATCH turns it back on', async () => {
  const o = await makeOwner(app.db);
  const gone = await startReceiver();
  const watcher = await startReceiver();
  try {
    const hook = await subscribe(o, gone.url);
    // Another subscription of the account listens for webhook.disabled.
    const watch = await subscribe(o, watcher.url, ['webhook.disabled']);
    watcher.secret = watch.secret;
    gone.respond = { status: 410, delayMs: 0 };
    await touch(o, 'Gone 1');
    await runQueued();
    const [d] = await deliveries(o, hook.id);
    assert.is(d.status, 'failed', 'no retry after a 410');
    assert.is(d.next_attempt_at, null);
    assert.equal(d.attempts.map((a: any) => [a.response_status, a.error]), [[410, 'HTTP 410']]);

    const shown = await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: HEAD });
    assert.is(shown.body.enabled, false);
    assert.is(shown.body.disabled_reason, 'gone');
    assert.ok(Math.abs(Date.parse(shown.body.disabled_at) - Date.now()) < 60_000, shown.body.disabled_at);

    // The event, delivered to the subscription listening for it.
    await runQueued();
    assert.is(watcher.received.length, 1);
    const told = watcher.received[0];
    assert.ok(told.verified);
    assert.is(told.json.type, 'webhook.disabled');
    assert.is(told.json.data.id, hook.id);
    assert.is(told.json.data.disabled_reason, 'gone');
    assert.is(told.json.data.enabled, false);
    assert.not.ok(told.json.data.secret ?? told.json.data.webhook_secret, 'the event never carries the secret');

    // The account's team is notified.
    const feed = await app.request('GET', '/notifications', { token: o.token, version: HEAD, query: { topic_id: 'ntop_webhookdisabled' } });
    assert.is(feed.status, 200, JSON.stringify(feed.body));
    assert.is(feed.body.data.length, 1);
    assert.is(feed.body.data[0].rest_path, hook.id);
    assert.match(feed.body.data[0].content, /410 Gone/);

    // Meanwhile events are listed, failed without a send, for a later resend or replay.
    const sentBefore = gone.received.length;
    await touch(o, 'Gone 2');
    await runQueued();
    const meanwhile = await deliveries(o, hook.id);
    assert.is(meanwhile.length, 2);
    assert.is(meanwhile[0].status, 'failed');
    assert.is(meanwhile[0].attempt_count, 0);
    assert.is(gone.received.length, sentBefore, 'nothing sent while disabled');

    // PATCH enabled true: back on, the reason and time cleared; the next event is delivered.
    const back = await app.request('PATCH', `/webhooks/${hook.id}`, { token: o.key, version: HEAD, body: { enabled: true } });
    assert.is(back.status, 200, JSON.stringify(back.body));
    assert.is(back.body.enabled, true);
    assert.is(back.body.disabled_reason, null);
    assert.is(back.body.disabled_at, null);
    gone.respond = { status: 200, delayMs: 0 };
    await touch(o, 'Back');
    await runQueued();
    const [latest] = await deliveries(o, hook.id);
    assert.is(latest.status, 'succeeded');
    // A subscription turned off by its owner says no reason, and gets no deliveries at all.
    const off = await app.request('PATCH', `/webhooks/${hook.id}`, { token: o.key, version: HEAD, body: { enabled: false } });
    assert.is(off.body.disabled_reason, null);
    await touch(o, 'Off');
    await runQueued();
    assert.is((await deliveries(o, hook.id)).length, 3);
  } finally {
    await gone.close();
    await watcher.close();
  }
});

t.run();
