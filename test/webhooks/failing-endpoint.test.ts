// A failing endpoint is told: a subscription whose deliveries have all failed for 5 days is disabled (reason
// failing, its time, a webhook.disabled event, a notification to the account's team); PATCH enabled true turns it
// back on with its failures forgotten. The days pass on a sandbox clock (POST /sandbox/clocks): a clocked account's
// retries wait for its clock and its failures are timed by it, while each POST goes out at the wall's time. Everything
// through the HTTP API, a real worker and a loopback receiver.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startReceiver, until, type Receiver } from './receiver.js';
import { RETRY_SCHEDULE_SECONDS } from '../../handlers/webhooks/delivery/retry-schedule.js';

const HEAD = '2026-09-06';
const DAY = 86_400_000;
const t = suite('webhooks: a subscription failing for 5 days is disabled and told');
let app: TestApp;
let receiver: Receiver;
t.before(async () => {
  app = await startTestApp({ worker: true });
  receiver = await startReceiver();
});
t.after(async () => {
  await receiver.close();
  await app.close();
});

type Owner = Awaited<ReturnType<typeof makeOwner>>;
const call = (o: Owner, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  app.request(method, path, { token: o.key, version: HEAD, body, query });
const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

async function advance(o: Owner, clockId: string, to: string): Promise<void> {
  const res = await call(o, 'POST', `/sandbox/clocks/${clockId}/advance`, { frozen_time: to });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await until(async () => (await call(o, 'GET', `/sandbox/clocks/${clockId}`)).body.status === 'ready', `the clock at ${to}`, 60_000);
}

const deliveries = async (o: Owner, hookId: string) => (await call(o, 'GET', `/webhooks/${hookId}/deliveries`)).body.data as any[];
const touch = async (o: Owner, title: string) => assert.is((await call(o, 'PATCH', `/accounts/${o.accountId}`, { title })).status, 200);
/** Waits until the newest delivery has had `attempts` attempts and is no longer being sent. */
const attempted = (o: Owner, hookId: string, attempts: number) => until(async () => {
  const [d] = await deliveries(o, hookId);
  return d && d.attempt_count === attempts && d.status !== 'sending' ? d : null;
}, `${attempts} attempts`, 30_000);

t('5 days of failures disable the subscription with its event and notification; PATCH turns it back on', async () => {
  const o = await makeOwner(app.db);
  const created = await call(o, 'POST', '/webhooks', { account_id: o.accountId, url: receiver.url, events: ['account.updated'] });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const hook = created.body.id as string;
  receiver.secret = created.body.secret;
  receiver.respond = { status: 500, delayMs: 0 };
  const start = new Date(Math.ceil((Date.now() + 10 * DAY) / 1000) * 1000).toISOString();
  const clock = await call(o, 'POST', '/sandbox/clocks', { account_id: o.accountId, frozen_time: start });
  assert.is(clock.status, 201, JSON.stringify(clock.body));
  const clockId = clock.body.id as string;

  // The first attempt goes out at once; its retry waits for the clock, at the clock's time (10 days ahead of the wall).
  await touch(o, 'Down 1');
  const first = await attempted(o, hook, 1);
  assert.is(first.status, 'pending');
  const firstWait = (Date.parse(first.next_attempt_at) - Date.parse(start)) / 1000;
  assert.ok(firstWait >= RETRY_SCHEDULE_SECONDS[0] * 0.9 && firstWait <= RETRY_SCHEDULE_SECONDS[0] * 1.1, `${firstWait} s after the clock's time`);

  // Four days on the clock: every retry of the schedule (about 3 days) ran and failed; not 5 days yet.
  await advance(o, clockId, at(start, 4 * DAY));
  const [failed] = await deliveries(o, hook);
  assert.is(failed.status, 'failed');
  assert.is(failed.attempt_count, RETRY_SCHEDULE_SECONDS.length + 1);
  assert.is(receiver.received.length, RETRY_SCHEDULE_SECONDS.length + 1);
  assert.ok(receiver.received.every((r) => r.verified), 'signed at the wall\'s time, so a receiver verifies them');
  assert.is((await call(o, 'GET', `/webhooks/${hook}`)).body.enabled, true);

  // Another event on day 4 fails too; once the failures span 5 days (during its retries on day 5) it is disabled.
  await touch(o, 'Down 2');
  await attempted(o, hook, 1);
  await advance(o, clockId, at(start, 6 * DAY));
  const shown = (await call(o, 'GET', `/webhooks/${hook}`)).body;
  assert.is(shown.enabled, false);
  assert.is(shown.disabled_reason, 'failing');
  const disabledAt = Date.parse(shown.disabled_at);
  assert.ok(disabledAt >= Date.parse(at(start, 5 * DAY)) && disabledAt < Date.parse(at(start, 6 * DAY)), shown.disabled_at);
  const [second] = await deliveries(o, hook);
  assert.is(second.status, 'failed', 'its delivery stops there');
  assert.is(second.next_attempt_at, null);
  assert.ok(second.attempt_count < RETRY_SCHEDULE_SECONDS.length + 1, `stopped after ${second.attempt_count} attempts`);

  // The team is told.
  const feed = await app.request('GET', '/notifications', { token: o.token, version: HEAD, query: { topic_id: 'ntop_webhookdisabled' } });
  assert.is(feed.status, 200, JSON.stringify(feed.body));
  assert.is(feed.body.data.length, 1);
  assert.match(feed.body.data[0].content, /failed for 5 days/);

  // Nothing is lost: what happens meanwhile is listed, failed without a send, for a replay.
  const sent = receiver.received.length;
  await touch(o, 'Meanwhile');
  const meanwhile = await until(async () => {
    const list = await deliveries(o, hook);
    return list.length === 3 ? list[0] : null;
  }, 'the delivery made while disabled');
  assert.is(meanwhile.status, 'failed');
  assert.is(meanwhile.attempt_count, 0);
  assert.is(receiver.received.length, sent);

  // Back on: the reason and time cleared, the failures forgotten (a failure now starts a new count: not disabled).
  const back = await call(o, 'PATCH', `/webhooks/${hook}`, { enabled: true });
  assert.is(back.status, 200, JSON.stringify(back.body));
  assert.equal([back.body.enabled, back.body.disabled_reason, back.body.disabled_at], [true, null, null]);
  await touch(o, 'Failing again');
  const again = await attempted(o, hook, 1);
  assert.is(again.status, 'pending', 'retried: the 5 days count from this failure');
  assert.is((await call(o, 'GET', `/webhooks/${hook}`)).body.enabled, true);
  receiver.respond = { status: 200, delayMs: 0 };
  await touch(o, 'Up');
  await until(async () => (await deliveries(o, hook)).some((d) => d.status === 'succeeded'), 'a delivery to succeed');
});

t.run();
