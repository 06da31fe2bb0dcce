// A subscription moving versions, side by side: during a window every event arrives twice, at the pin and at the
// second version, each its own delivery, signed, marked by its webhook-version header, and unwrapped by the official
// client; ending the window keeping the second moves the pin; a window past its until ends by itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, until, type Receiver, type Received } from '../webhooks/receiver.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { LATEST, PIN, raw, sdk } from './sdk-helpers.js';

const t = suite('sdk: webhooks side by side during a version move');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

type Owner = { key: string; accountId: string };
const headersOf = (r: Received) => ({ 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** An account.updated event of the account's. */
async function touch(o: Owner, title: string): Promise<void> {
  assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: LATEST, body: { title } })).status, 200);
}

/** Runs what requests queued (dispatch, then the due deliveries), as the worker would; what the receiver got. */
async function runQueued(expected: number): Promise<Received[]> {
  receiver.received.length = 0;
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
  const due = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
  assert.is(receiver.received.length, expected, JSON.stringify(receiver.received.map((r) => r.json)));
  return [...receiver.received];
}

/** A subscription to account.updated pinned at PIN; its id and secret. */
async function subscribe(o: Owner): Promise<{ id: string; secret: string }> {
  const res = await app.request('POST', '/webhooks', {
    token: o.key, version: LATEST, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'], api_version_date: PIN },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, secret: res.body.secret };
}

const post = (o: Owner, path: string, body: unknown) => app.request('POST', path, { token: o.key, version: LATEST, body });

t('during a window both renderings arrive, signed and marked; ending it keeping the second moves the pin', async () => {
  const o = await makeOwner(app.db, { title: 'Side by side' });
  const hook = await subscribe(o);
  const client = sdk(app, o.key, { webhookKey: hook.secret });
  // No method of the client's names the operation: its generic post sends it.
  const opened = raw(await client.post(`/webhooks/${hook.id}/side_by_side`, { body: { version: LATEST, until: inAnHour() } }));
  assert.is(opened.side_by_side_version, LATEST);
  assert.ok(opened.side_by_side_until);

  await touch(o, 'Side by side 1');
  const got = await runQueued(2);
  const byVersion = Object.fromEntries(got.map((r) => [r.version, r]));
  assert.equal(Object.keys(byVersion).sort(), [PIN, LATEST]);
  assert.is.not(byVersion[PIN].id, byVersion[LATEST].id, 'two deliveries, two webhook-ids');
  for (const r of got) {
    const event = raw(client.webhooks.unwrap(r.body, { headers: headersOf(r) }));
    assert.is(event.type, 'account.updated');
    assert.is(event.api_version_date, r.version, 'the payload says the version its header names');
  }
  assert.is(byVersion[PIN].json.id, byVersion[LATEST].json.id, 'the same event');
  assert.is(byVersion[PIN].json.company_id, o.accountId, 'the pin\'s envelope');
  assert.is(byVersion[PIN].json.account_id, undefined);
  assert.is(byVersion[LATEST].json.account_id, o.accountId, 'the second version\'s envelope');
  assert.is(byVersion[LATEST].json.company_id, undefined);

  const listed = await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: o.key, version: LATEST });
  assert.equal(listed.body.data.map((d: any) => d.api_version_date).sort(), [PIN, LATEST]);
  assert.ok(listed.body.data.every((d: any) => d.status === 'succeeded' && d.attempts.length === 1));
  const second = await app.request('GET', `/webhooks/${hook.id}/deliveries?api_version_date=${LATEST}`, { token: o.key, version: LATEST });
  assert.equal(second.body.data.map((d: any) => d.id), [byVersion[LATEST].id]);

  const ended = await post(o, `/webhooks/${hook.id}/side_by_side/end`, { keep: 'second' });
  assert.is(ended.status, 200, JSON.stringify(ended.body));
  assert.is(ended.body.api_version_date, LATEST);
  assert.is(ended.body.side_by_side_version, null);
  await touch(o, 'Side by side 2');
  const [after] = await runQueued(1);
  assert.is(after.version, LATEST);
  assert.is(after.json.account_id, o.accountId);
  assert.is(raw(client.webhooks.unwrap(after.body, { headers: headersOf(after) })).api_version_date, LATEST);
});

t('ending a window keeping the current pin delivers once at the pin', async () => {
  const o = await makeOwner(app.db, { title: 'Side by side kept' });
  const hook = await subscribe(o);
  assert.is((await post(o, `/webhooks/${hook.id}/side_by_side`, { version: LATEST, until: inAnHour() })).status, 200);
  const ended = await post(o, `/webhooks/${hook.id}/side_by_side/end`, { keep: 'current' });
  assert.is(ended.body.api_version_date, PIN);
  await touch(o, 'Side by side kept 1');
  const [once] = await runQueued(1);
  assert.is(once.version, PIN);
  assert.is((await post(o, `/webhooks/${hook.id}/side_by_side/end`, { keep: 'current' })).status, 400, 'no window open');
});

t('a window past its until ends by itself, keeping the pin', async () => {
  const o = await makeOwner(app.db, { title: 'Side by side expiring' });
  const hook = await subscribe(o);
  const opened = await post(o, `/webhooks/${hook.id}/side_by_side`, { version: LATEST, until: new Date(Date.now() + 1500).toISOString() });
  assert.is(opened.status, 200, JSON.stringify(opened.body));
  await until(async () => (await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: LATEST })).body.side_by_side_version === null,
    'the window to end', 10_000);
  await touch(o, 'Side by side expiring 1');
  const [once] = await runQueued(1);
  assert.is(once.version, PIN);
  assert.is((await post(o, `/webhooks/${hook.id}/side_by_side/end`, { keep: 'second' })).status, 400, 'the window has ended');
  assert.is((await app.request('GET', `/webhooks/${hook.id}`, { token: o.key, version: LATEST })).body.api_version_date, PIN);
});

t('a window names another version and ends within 30 days', async () => {
  const o = await makeOwner(app.db, { title: 'Side by side refused' });
  const hook = await subscribe(o);
  const same = await post(o, `/webhooks/${hook.id}/side_by_side`, { version: PIN, until: inAnHour() });
  assert.is(same.status, 400);
  assert.is(same.body.error?.param ?? same.body.param, 'version', JSON.stringify(same.body));
  const far = await post(o, `/webhooks/${hook.id}/side_by_side`, { version: LATEST, until: new Date(Date.now() + 31 * 86_400_000).toISOString() });
  assert.is(far.status, 400, JSON.stringify(far.body));
  const past = await post(o, `/webhooks/${hook.id}/side_by_side`, { version: LATEST, until: new Date(Date.now() - 1000).toISOString() });
  assert.is(past.status, 400, JSON.stringify(past.body));
});

// Last: its pinned delivery stays pending, due again in about 30 s, which no later test of the file may run.
t('each rendering retries on its own: a failed second-version delivery is resent at its version', async () => {
  const o = await makeOwner(app.db, { title: 'Side by side retried' });
  const hook = await subscribe(o);
  assert.is((await post(o, `/webhooks/${hook.id}/side_by_side`, { version: LATEST, until: inAnHour() })).status, 200);
  receiver.respond = { status: 500, delayMs: 0 };
  try {
    await touch(o, 'Side by side retried 1');
    await runQueued(2);
  } finally {
    receiver.respond = { status: 200, delayMs: 0 };
  }
  const listed = (await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: o.key, version: LATEST })).body.data;
  assert.equal(listed.map((d: any) => [d.status, d.attempt_count]), [['pending', 1], ['pending', 1]], 'each waits for its own retry');
  const second = listed.find((d: any) => d.api_version_date === LATEST);
  const resent = await post(o, `/webhooks/${hook.id}/deliveries/${second.id}/resend`, {});
  assert.is(resent.status, 200, JSON.stringify(resent.body));
  receiver.received.length = 0;
  await deliverWebhook(app.db, second.id);
  assert.equal(receiver.received.map((r) => [r.id, r.version]), [[second.id, LATEST]]);
  const after = (await app.request('GET', `/webhooks/${hook.id}/deliveries`, { token: o.key, version: LATEST })).body.data;
  assert.equal(Object.fromEntries(after.map((d: any) => [d.api_version_date, d.status])), { [PIN]: 'pending', [LATEST]: 'succeeded' });
});

t.run();
