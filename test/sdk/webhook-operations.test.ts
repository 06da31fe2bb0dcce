// Secret rotation and test events through the official client: client.webhooks.unwrap verifies a delivery made
// during a rotation's overlap with the old and with the new secret, and after it with the new one only; a test event
// unwraps like any; the client's Webhook shape (2026-07-20) has testable_events.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, until, type Receiver, type Received } from '../webhooks/receiver.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { PIN, raw, sdk } from './sdk-helpers.js';

const t = suite('sdk: webhook secret rotation and test events');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

/** An account.updated event of the account's. */
async function touch(o: { key: string; accountId: string }, title: string): Promise<void> {
  assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: '2026-09-06', body: { title } })).status, 200);
}

const headersOf = (r: Received) => ({ 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });

/** Runs what requests queued (dispatch, then the due deliveries), as the worker would; the newest delivery received. */
async function runQueued(): Promise<Received> {
  receiver.received.length = 0;
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
  const due = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
  assert.is(receiver.received.length, 1, JSON.stringify(receiver.received.map((r) => r.json)));
  return receiver.received[0];
}

t('during the overlap unwrap accepts the old and the new secret; after it the new one only', async () => {
  const o = await makeOwner(app.db, { title: 'SDK rotation' });
  const client = sdk(app, o.key);
  const created = await client.webhooks.create({ url: receiver.url, events: ['account.updated' as never], resource_id: o.accountId });
  const old = created.webhook_secret;
  const shown = await client.webhooks.retrieve(created.id);
  assert.equal(shown.testable_events, ['account.updated'], 'the client\'s Webhook shape at 2026-07-20');

  // No method of the client's names the operation: its generic post sends it (at its pin, 2026-07-20).
  const rotated = raw(await client.post(`/webhooks/${created.id}/rotate_secret`, { body: { overlap_seconds: 2 } }));
  const secret: string = rotated.webhook_secret;
  assert.match(secret, /^whsec_/);
  assert.is.not(secret, old);
  assert.ok(rotated.previous_secret_expires_at);

  await touch(o, 'SDK rotation 1');
  const during = await runQueued();
  assert.is(sdk(app, o.key, { webhookKey: secret }).webhooks.unwrap(during.body, { headers: headersOf(during) }).type, 'account.updated' as never);
  assert.is(sdk(app, o.key, { webhookKey: old }).webhooks.unwrap(during.body, { headers: headersOf(during) }).type, 'account.updated' as never);

  await until(async () => raw(await client.webhooks.retrieve(created.id)).previous_secret_expires_at === null, 'the overlap to end', 10_000);
  await touch(o, 'SDK rotation 2');
  const after = await runQueued();
  assert.is(sdk(app, o.key, { webhookKey: secret }).webhooks.unwrap(after.body, { headers: headersOf(after) }).type, 'account.updated' as never);
  assert.throws(() => sdk(app, o.key, { webhookKey: old }).webhooks.unwrap(after.body, { headers: headersOf(after) }), /signature/i);
});

t('a test event is delivered signed, rendered at the pin, marked test, and unwraps like any', async () => {
  const o = await makeOwner(app.db, { title: 'SDK test event' });
  const res = await app.request('POST', '/webhooks', {
    token: o.key, body: { account_id: o.accountId, url: receiver.url, events: ['payment.succeeded'], api_version_date: PIN }, version: '2026-09-06',
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const client = sdk(app, o.key, { webhookKey: res.body.secret });
  const delivery = raw(await client.post(`/webhooks/${res.body.id}/test`, { body: { event: 'payment.succeeded' } }));
  assert.is(delivery.test, true);
  const got = await runQueued();
  const event = client.webhooks.unwrap(got.body, { headers: headersOf(got) });
  assert.is(event.type, 'payment.succeeded');
  assert.is(raw(event).test, true);
  assert.is(raw(event).company_id, o.accountId);
  assert.is(raw(event).data.id, 'pay_test');
  assert.is(raw(event).data.company_id, o.accountId, 'the sample names the subscription\'s account, at the pin\'s name');
});

t.run();
