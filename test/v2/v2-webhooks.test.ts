// A subscription created through /api/v2 receives v2-format payloads; one created through /api/v1 does not, and
// /api/v1 has no way to make a subscription v2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { renderAt } from '../../runtime/render.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { v2Settings } from '../../generated/v2-routes.js';
import { v2, expectV2Headers, expectError, expectOk } from './support.js';

let app: TestApp;
let receiver: Receiver;
test.before(async () => { app = await startTestApp(); receiver = await startReceiver(); });
test.after(async () => { await receiver.close(); await app.close(); });

async function runQueued(): Promise<void> {
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
  for (const id of await app.db('webhook_deliveries').where({ status: 'pending' }).pluck('id')) await deliverWebhook(app.db, id);
}

test('POST /api/v2/webhooks creates a subscription with v2 payloads; a v1 one keeps the Current envelope', async () => {
  const o = await makeOwner(app.db);
  const created = await v2(app, 'POST', '/webhooks', { token: o.key, body: { company_id: o.accountId, url: receiver.url, events: ['account.updated'] } });
  expectOk(created, 201);
  expectV2Headers(app, created, '/webhooks');
  assert.is(created.body.api_version, 'v2', 'it shows the format it delivers');
  const v2Hook = created.body.id as string;
  assert.is((await app.db('webhooks').where({ id: v2Hook }).first()).payload_format, 'v2');
  const v1 = await app.request('POST', '/webhooks', { token: o.key, version: headVersion(), body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] } });
  assert.is(v1.status, 201, JSON.stringify(v1.body));
  assert.is((await app.db('webhooks').where({ id: v1.body.id }).first()).payload_format, 'v1');

  receiver.received.length = 0;
  const patched = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: headVersion(), body: { title: 'Renamed shop' } });
  assert.is(patched.status, 200);
  await runQueued();
  assert.is(receiver.received.length, 2);
  const deliveryOf = async (hook: string) => {
    const d = await app.db('webhook_deliveries').where({ webhook_id: hook }).first('id');
    return receiver.received.find((r) => r.id === d.id)!;
  };
  const legacy = (await deliveryOf(v2Hook)).json;
  const event = await app.db('events').where({ type: 'account.updated', account_id: o.accountId }).first();
  assert.equal(legacy, {
    id: event.id, action: 'account.updated', api_version: 'v2', company_id: o.accountId,
    created_at: Math.floor(new Date(event.created_at).getTime() / 1000),
    data: renderAt('Account', event.data, v2Settings.renderVersion),
  });
  const current = (await deliveryOf(v1.body.id)).json;
  assert.is(current.type, 'account.updated');
  assert.is(current.action, undefined);
  assert.is(current.api_version, undefined);
});

test('/api/v1 cannot create or switch a subscription to v2 payloads', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/webhooks', {
    token: o.key, version: headVersion(), body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'], payload_format: 'v2' },
  });
  expectError(created, 400, 'invalid_request', 'payload_format');
  const hook = await app.request('POST', '/webhooks', { token: o.key, version: headVersion(), body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] } });
  const switched = await app.request('PATCH', `/webhooks/${hook.body.id}`, { token: o.key, version: headVersion(), body: { payload_format: 'v2' } });
  expectError(switched, 400, 'invalid_request', 'payload_format');
  assert.is((await app.db('webhooks').where({ id: hook.body.id }).first()).payload_format, 'v1');
});

test.run();
