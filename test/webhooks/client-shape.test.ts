// Webhook subscriptions in the official client's shape (@whop/sdk, default pin 2026-07-20: entries 41 and 43 keep
// resource_id, child_resource_events, webhook_secret, company_id and the api_version input), the head shape at the latest,
// and a real delivery verified by the client's own webhooks.unwrap.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import Whop from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { specData } from '../../generated/spec-data.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';

const CLIENT_PIN = '2026-07-20';
const CATALOGUE = Object.keys(specData.events).sort();

const t = suite('webhooks: the client\'s shape');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const clientFor = (apiKey: string) => new Whop({ apiKey, baseURL: app.url, maxRetries: 0 });

function badRequest(res: { status: number; body: any }, param: string) {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, param);
}

t('the client creates, lists, retrieves, updates and deletes at its pin, in its shape', async () => {
  const o = await makeOwner(app.db);
  const client = clientFor(o.key);
  const created = await client.webhooks.create({ url: 'https://example.com/orders' });
  assert.match(created.id, /^hook_/);
  assert.is(created.url, 'https://example.com/orders');
  assert.is(created.resource_id, o.accountId, 'the API key\'s account when none is named');
  assert.equal(created.events, CATALOGUE, 'every event of the catalogue when none are named');
  assert.is(created.enabled, true);
  assert.is(created.child_resource_events, false);
  assert.is(created.api_version, 'v1');
  assert.match(created.webhook_secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.ok(Date.parse(created.created_at) > 0);
  for (const head of ['account_id', 'include_connected_accounts', 'secret']) assert.not.ok(head in created, head);

  const named = await client.webhooks.create({
    url: 'https://example.com/payments', resource_id: o.accountId, events: ['payment.succeeded', 'payment.failed'],
    child_resource_events: true, enabled: false, api_version: 'v1',
  });
  assert.is(named.resource_id, o.accountId);
  assert.equal(named.events, ['payment.succeeded', 'payment.failed']);
  assert.is(named.child_resource_events, true);
  assert.is(named.enabled, false);
  const stored = await app.db('webhooks').where({ id: named.id }).first();
  assert.is(stored.include_connected_accounts, true);
  assert.is(stored.account_id, o.accountId);

  const got = await client.webhooks.retrieve(named.id);
  assert.is(got.resource_id, o.accountId);
  assert.is(got.child_resource_events, true);
  assert.is(got.api_version, 'v1');
  assert.is((got as any).webhook_secret, null, 'the secret is shown by the create response only');

  const ids: string[] = [];
  for await (const w of client.webhooks.list({ company_id: o.accountId })) {
    ids.push(w.id);
    assert.is(w.api_version, 'v1');
    assert.is(typeof w.child_resource_events, 'boolean');
  }
  assert.equal(ids, [named.id, created.id]);

  const updated = await client.webhooks.update(named.id, { child_resource_events: false, enabled: true, events: ['refund.created'], api_version: 'v1' });
  assert.is(updated.child_resource_events, false);
  assert.is(updated.enabled, true);
  assert.equal(updated.events, ['refund.created']);

  await client.webhooks.delete(named.id);
  try {
    await client.webhooks.retrieve(named.id);
    assert.unreachable('a deleted subscription is a 404');
  } catch (e) {
    assert.instance(e, Whop.NotFoundError);
  }
});

t('api_version before 2026-08-07: v1 and null are the v1 format; v2 and v5 are a 400 naming it; refused from 2026-08-07', async () => {
  const o = await makeOwner(app.db);
  const create = (body: Record<string, unknown>, version = CLIENT_PIN) =>
    app.request('POST', '/webhooks', { token: o.key, version, body: { url: 'https://example.com/h', ...body } });
  for (const v of ['v2', 'v5']) {
    const res = await create({ api_version: v });
    badRequest(res, 'api_version');
    assert.match(res.body.error.message, /cannot be created or switched to through \/api\/v1/);
  }
  badRequest(await create({ api_version: 'v3' }), 'api_version');
  const asNull = await create({ api_version: null });
  assert.is(asNull.status, 201, JSON.stringify(asNull.body));
  assert.is(asNull.body.api_version, 'v1');
  assert.is((await create({ api_version: 'v1' }, '2026-08-06')).status, 201);
  const patch = (body: Record<string, unknown>, version = CLIENT_PIN) =>
    app.request('PATCH', `/webhooks/${asNull.body.id}`, { token: o.key, version, body });
  badRequest(await patch({ api_version: 'v5' }), 'api_version');
  assert.is((await patch({ api_version: 'v1' })).status, 200);
  assert.is((await patch({ api_version: null })).status, 200);
  for (const version of ['2026-08-07', headVersion()]) {
    const refused = await create({ api_version: 'v1' }, version);
    badRequest(refused, 'api_version');
    assert.match(refused.body.error.message, /not a recognised parameter/);
    badRequest(await patch({ api_version: 'v1' }, version), 'api_version');
  }
  assert.is(await app.db('webhooks').where({ account_id: o.accountId }).count('* as n').first().then((r: any) => Number(r.n)), 2);
});

t('older names: resource_id and child_resource_events before 2026-08-14, account_id and include_connected_accounts from it', async () => {
  const o = await makeOwner(app.db);
  const old = await app.request('POST', '/webhooks', {
    token: o.key, version: '2026-08-13', body: { url: 'https://e.com/h', resource_id: o.accountId, child_resource_events: true },
  });
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.is(old.body.resource_id, o.accountId);
  assert.is(old.body.child_resource_events, true);
  assert.is(old.body.api_version, 'v1', 'only the api_version input left at 2026-08-07: the format is shown at every version');
  assert.match(old.body.secret, /^whsec_/);
  badRequest(await app.request('POST', '/webhooks', {
    token: o.key, version: '2026-08-13', body: { url: 'https://e.com/h', account_id: o.accountId },
  }), 'account_id');
  const listed = await app.request('GET', '/webhooks', { token: o.key, version: CLIENT_PIN, query: { company_id: o.accountId } });
  assert.equal(listed.body.data.map((w: any) => w.id), [old.body.id]);
  badRequest(await app.request('GET', '/webhooks', { token: o.key, version: CLIENT_PIN, query: { account_id: o.accountId } }), 'account_id');
  // Another account named the client's way is a 404.
  const other = await makeOwner(app.db);
  const foreign = await app.request('POST', '/webhooks', {
    token: o.key, version: CLIENT_PIN, body: { url: 'https://e.com/h', resource_id: other.accountId },
  });
  assert.is(foreign.status, 404, JSON.stringify(foreign.body));
  // A user token must name the account at every version.
  const byUser = await app.request('POST', '/webhooks', { token: o.token, version: CLIENT_PIN, body: { url: 'https://e.com/h' } });
  assert.is(byUser.status, 400, JSON.stringify(byUser.body));
  assert.match(byUser.body.error.message, /user token/);
  const byUserNamed = await app.request('POST', '/webhooks', {
    token: o.token, version: CLIENT_PIN, body: { url: 'https://e.com/h', resource_id: o.accountId, events: ['plan.deleted'] },
  });
  assert.is(byUserNamed.status, 201, JSON.stringify(byUserNamed.body));

  const head = await app.request('POST', '/webhooks', { token: o.key, version: headVersion(), body: { url: 'https://e.com/h', include_connected_accounts: true } });
  assert.is(head.status, 201, JSON.stringify(head.body));
  assert.is(head.body.account_id, o.accountId);
  assert.is(head.body.include_connected_accounts, true);
  assert.match(head.body.secret, /^whsec_/);
  for (const older of ['resource_id', 'child_resource_events', 'webhook_secret']) assert.not.ok(older in head.body, older);
  assert.is(head.body.api_version, 'v1', 'the payload format is shown at the latest too');
  badRequest(await app.request('POST', '/webhooks', {
    token: o.key, version: headVersion(), body: { url: 'https://e.com/h', resource_id: o.accountId },
  }), 'resource_id');
});

/** A subscriber's server: it verifies each delivery with the official client, as an integrator would. */
async function clientReceiver(secret: string) {
  const outcomes: { verified: boolean; event?: any; error?: string; headers: IncomingHttpHeaders }[] = [];
  const verifier = new Whop({ apiKey: 'unused', webhookKey: secret });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        outcomes.push({ verified: true, event: verifier.webhooks.unwrap(body, { headers }), headers: req.headers });
        res.writeHead(200).end();
      } catch (e) {
        outcomes.push({ verified: false, error: String(e), headers: req.headers });
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/whop`, outcomes,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function deliverQueued(): Promise<void> {
  for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
  const due = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(app.db, id);
}

t('a real delivery verifies with new Whop({ webhookKey: <webhook_secret> }).webhooks.unwrap', async () => {
  const o = await makeOwner(app.db, { title: 'Unwrapped' });
  const client = clientFor(o.key);
  // The receiver needs the secret the create response carries: create first at a placeholder, then point it there.
  const created = await client.webhooks.create({ url: 'https://example.com/placeholder' });
  const receiver = await clientReceiver(created.webhook_secret);
  try {
    await client.webhooks.update(created.id, { url: receiver.url });
    const res = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: headVersion(), body: { title: 'Unwrapped 2' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await deliverQueued();
    assert.is(receiver.outcomes.length, 1);
    const [outcome] = receiver.outcomes;
    assert.ok(outcome.verified, outcome.error);
    assert.is(outcome.event.type, 'account.updated');
    assert.is(outcome.event.data.title, 'Unwrapped 2');
    assert.is(outcome.event.company_id, o.accountId, 'an unpinned subscription gets the earlier envelope');
    const delivery = await app.db('webhook_deliveries').where({ webhook_id: created.id }).first();
    assert.is(outcome.headers['webhook-id'], delivery.id);
    assert.is(delivery.status, 'succeeded');

    // Another subscription's secret does not verify the same delivery.
    const other = await client.webhooks.create({ url: 'https://example.com/other', events: ['payment.failed'] });
    const wrong = new Whop({ apiKey: 'unused', webhookKey: other.webhook_secret });
    const body = await app.db('webhook_delivery_attempts').where({ delivery_id: delivery.id }).first();
    assert.ok(body, 'the attempt is recorded');
    assert.throws(() => wrong.webhooks.unwrap(JSON.stringify(outcome.event), {
      headers: Object.fromEntries(Object.entries(outcome.headers).map(([k, v]) => [k, String(v)])),
    }));
  } finally {
    await receiver.close();
  }
});

t.run();
