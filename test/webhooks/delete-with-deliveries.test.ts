// Deleting a subscription that has deliveries: a soft delete that keeps the delivery history in the database, hides
// the subscription from every read (404), and sends nothing more to it, whether already queued or newly raised.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { withAppAndReceiver, type Receiver } from './receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: deleting a subscription with deliveries');
let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

/** Fans out the events not yet dispatched, as the worker's dispatch_event job would. */
async function dispatchQueued(): Promise<void> {
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
}

async function renameAccount(o: { key: string; accountId: string }, title: string) {
  const res = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title } });
  assert.is(res.status, 200, JSON.stringify(res.body));
}

t('a subscription with delivered and queued deliveries deletes (200), is a 404 everywhere, and receives nothing more', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  receiver.secret = created.body.secret;

  await renameAccount(o, 'Delivered');
  await dispatchQueued();
  const [delivered] = await app.db('webhook_deliveries').where({ webhook_id: id }).pluck('id');
  assert.is(await deliverWebhook(app.db, delivered), 'succeeded');
  await renameAccount(o, 'Queued');
  await dispatchQueued();
  const queued = (await app.db('webhook_deliveries').where({ webhook_id: id, status: 'pending' }).pluck('id'))[0] as string;
  assert.ok(queued, 'a second delivery is queued');
  const deliveries = await app.request('GET', `/webhooks/${id}/deliveries`, { token: o.key, version: HEAD });
  assert.is(deliveries.body.data.length, 2);

  const res = await app.request('DELETE', `/webhooks/${id}`, { token: o.key, version: HEAD });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { id, deleted: true });

  for (const [method, path, body] of [['GET', `/webhooks/${id}`], ['GET', `/webhooks/${id}/deliveries`],
    ['PATCH', `/webhooks/${id}`, { enabled: true }], ['DELETE', `/webhooks/${id}`]] as const) {
    const after = await app.request(method, path, { token: o.key, version: HEAD, body });
    assert.is(after.status, 404, `${method} ${path}: ${JSON.stringify(after.body)}`);
    assert.is(after.body.error.param, 'id');
  }
  const list = await app.request('GET', '/webhooks', { token: o.key, version: HEAD, query: { account_id: o.accountId } });
  assert.equal(list.body.data, []);

  // The delivery queued before the delete is closed without a send; an event after it makes no delivery.
  const sent = receiver.received.length;
  assert.is(await deliverWebhook(app.db, queued), 'failed');
  await renameAccount(o, 'After');
  await dispatchQueued();
  assert.is(receiver.received.length, sent);
  const history = await app.db('webhook_deliveries').where({ webhook_id: id }).orderBy('created_at').select('id', 'status');
  assert.equal(history, [{ id: delivered, status: 'succeeded' }, { id: queued, status: 'failed' }]);
  const attempt = await app.db('webhook_delivery_attempts').where({ delivery_id: queued }).first('error');
  assert.is(attempt.error, 'the subscription was deleted');
});

t('deleting one subscription leaves the account\'s other subscriptions and their deliveries alone', async () => {
  const o = await makeOwner(app.db);
  const make = async () => (await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] },
  })).body as { id: string; secret: string };
  const gone = await make();
  const kept = await make();
  await renameAccount(o, 'Both');
  await dispatchQueued();
  assert.is((await app.request('DELETE', `/webhooks/${gone.id}`, { token: o.key, version: HEAD })).status, 200);
  const list = await app.request('GET', '/webhooks', { token: o.key, version: HEAD, query: { account_id: o.accountId } });
  assert.equal(list.body.data.map((w: { id: string }) => w.id), [kept.id]);
  const deliveries = await app.request('GET', `/webhooks/${kept.id}/deliveries`, { token: o.key, version: HEAD });
  assert.is(deliveries.body.data.length, 1);
  receiver.secret = kept.secret;
  assert.is(await deliverWebhook(app.db, deliveries.body.data[0].id), 'succeeded');
});

t('parallel deletes of a subscription with deliveries: one 200, the others 404, none a 5xx', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] },
  });
  await renameAccount(o, 'Raced');
  await dispatchQueued();
  const results = await Promise.all(Array.from({ length: 8 }, () =>
    app.request('DELETE', `/webhooks/${created.body.id}`, { token: o.key, version: HEAD })));
  assert.equal(results.map((r) => r.status).sort(), [200, 404, 404, 404, 404, 404, 404, 404], JSON.stringify(results.map((r) => r.body)));
});

t.run();
