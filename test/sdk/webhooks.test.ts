// Webhooks through the official client: create in the client's shape (url, events, resource_id), and
// client.webhooks.unwrap verifying a real signed delivery from the server.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type Whop from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { startReceiver, type Receiver, type Received } from '../webhooks/receiver.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { LATEST, PIN, raw, sdk } from './sdk-helpers.js';

const t = suite('sdk: webhooks');
let app: TestApp;
let receiver: Receiver;
let seller: Awaited<ReturnType<typeof makeSeller>>;
let pinned: Whop;
t.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
  seller = await makeSeller(app.db);
  pinned = sdk(app, seller.key);
});
t.after(async () => {
  await receiver.close();
  await app.close();
});

/** Runs the jobs requests queued (dispatch, then deliveries), as the worker would. */
async function runQueued(): Promise<void> {
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
  const due = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
}

const headersOf = (r: Received) => ({ 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });

/** A payment collected for the seller, and the delivery the receiver got for it on `webhookId`. */
async function deliveredPayment(webhookId: string) {
  receiver.received.length = 0;
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  await runQueued();
  const delivery = await app.db('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('created_at', 'desc').first();
  assert.ok(delivery, 'a delivery was made for the subscription');
  const received = receiver.received.find((r) => r.id === delivery.id && r.json.type === 'payment.succeeded');
  assert.ok(received, `received ${JSON.stringify(receiver.received.map((r) => r.json.type))}`);
  return { paymentId: id, received: received! };
}

t('webhooks.create in the client\'s shape (url, events, resource_id) answers the secret; unwrap verifies its delivery', async () => {
  const created = await pinned.webhooks.create({ url: receiver.url, events: ['payment.succeeded'], resource_id: seller.accountId });
  assert.match(created.id, /^[a-z]+_/);
  assert.is(created.url, receiver.url);
  assert.equal(created.events, ['payment.succeeded']);
  assert.is(created.resource_id, seller.accountId);
  assert.match(created.webhook_secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  const { paymentId, received } = await deliveredPayment(created.id);
  const event = sdk(app, seller.key, { webhookKey: created.webhook_secret }).webhooks.unwrap(received.body, { headers: headersOf(received) });
  assert.is(event.type, 'payment.succeeded');
  assert.is(raw(event).data.id, paymentId);
});

t('webhooks.unwrap verifies a real signed delivery rendered at 2026-07-20, and refuses a tampered one', async () => {
  // Subscribed in the server's current shape (account_id, events), pinned to the client's version.
  const res = await app.request('POST', '/webhooks', {
    token: seller.key, version: LATEST,
    body: { account_id: seller.accountId, url: receiver.url, events: ['payment.succeeded'], api_version_date: PIN },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const secret: string = res.body.secret;
  receiver.secret = secret;
  const { paymentId, received } = await deliveredPayment(res.body.id);
  assert.ok(received.verified, 'the receiver\'s own check agrees');
  const client = sdk(app, seller.key, { webhookKey: secret });
  const event = client.webhooks.unwrap(received.body, { headers: headersOf(received) });
  assert.is(event.type, 'payment.succeeded');
  assert.is(event.id, received.json.id);
  assert.is(raw(event).company_id, seller.accountId);
  const data = raw(event).data;
  assert.is(data.id, paymentId);
  assert.is(data.status, 'paid');
  assert.is(data.total, 10.43);
  assert.is(data.company_id, seller.accountId);
  // The key may also be given per call; a tampered body or another secret is refused.
  assert.is(sdk(app, seller.key).webhooks.unwrap(received.body, { headers: headersOf(received), key: secret }).id, event.id);
  assert.throws(() => client.webhooks.unwrap(received.body.replace('10.43', '1.43'), { headers: headersOf(received) }), /signature/i);
  const other = `whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`;
  assert.throws(() => client.webhooks.unwrap(received.body, { headers: headersOf(received), key: other }), /signature/i);
});

t.run();
