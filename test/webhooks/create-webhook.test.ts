import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { addMember } from '../auth/team.js';
import { specData } from '../../generated/spec-data.js';
import { headVersion } from '../../runtime/versions.js';
import { unseal } from '../../runtime/sealed-secrets.js';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';

const t = suite('POST /webhooks');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const hook = (accountId: string, extra: Record<string, unknown> = {}) =>
  ({ account_id: accountId, url: 'https://example.com/hooks', events: ['payment.succeeded'], ...extra });

function badRequest(res: { status: number; body: any }, param: string) {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, param);
}

t('creates a subscription: 201 with every field and a Standard Webhooks secret, once', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/webhooks', {
    token: o.key,
    body: hook(o.accountId, { events: ['payment.succeeded', 'setup_intent.requires_action', 'payment.succeeded'], description: 'Orders' }),
  });
  assert.is(res.status, 201);
  const w = res.body;
  assert.match(w.id, /^hook_[A-Za-z0-9]+$/);
  assert.is(w.account_id, o.accountId);
  assert.is(w.url, 'https://example.com/hooks');
  assert.equal(w.events, ['payment.succeeded', 'setup_intent.requires_action']);
  assert.is(w.enabled, true);
  assert.is(w.description, 'Orders');
  assert.is(w.api_version_date, null);
  assert.is(w.include_connected_accounts, false);
  assert.match(w.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.is(Buffer.from(w.secret.slice(6), 'base64').length, 24);
  assert.ok(Date.parse(w.created_at) > 0);
  assert.ok(Date.parse(w.updated_at) > 0);
  const stored = await app.db('webhooks').where({ id: w.id }).first();
  // Kept to sign deliveries, sealed (runtime/sealed-secrets.ts): the stored text is not the secret.
  assert.is.not(stored.secret, w.secret);
  assert.is(unseal(stored.secret), w.secret);
});

t('a user token with the scope can create; settings are kept', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/webhooks', {
    token: o.token, version: headVersion(),
    body: hook(o.accountId, { enabled: false, include_connected_accounts: true, api_version_date: '2026-10-01', description: null }),
  });
  assert.is(res.status, 201);
  assert.is(res.body.enabled, false);
  assert.is(res.body.include_connected_accounts, true);
  assert.is(res.body.api_version_date, '2026-09-06');
  assert.is(res.body.description, null);
  const pinned = await app.request('POST', '/webhooks', { token: o.token, version: headVersion(), body: hook(o.accountId, { api_version_date: '2026-09-06.2' }) });
  assert.is(pinned.body.api_version_date, '2026-09-06');
});

t('api_version is rejected: use api_version_date', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { api_version: 'v5' }) });
  badRequest(res, 'api_version');
  assert.match(res.body.error.message, /not a recognised parameter/);
});

t('api_version_date must be a valid version date', async () => {
  const o = await makeOwner(app.db);
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { api_version_date: 'latest' }) }), 'api_version_date');
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { api_version_date: '2026-02-30' }) }), 'api_version_date');
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { api_version_date: '2024-12-31' }) }), 'api_version_date');
});

t('url must be https, except http to localhost, 127.0.0.1 and [::1]', async () => {
  const o = await makeOwner(app.db);
  for (const url of ['http://example.com/hooks', 'ftp://example.com/hooks', 'http://10.0.0.1/hooks']) {
    const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { url }) });
    badRequest(res, 'url');
    assert.match(res.body.error.message, /https/);
  }
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { url: 'not a url' }) }), 'url');
  for (const url of ['http://127.0.0.1:4000/hooks', 'http://localhost/hooks', 'http://[::1]:8080/h']) {
    const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { url }) });
    assert.is(res.status, 201, url);
    assert.is(res.body.url, url);
  }
});

t('events are names from the declared catalogue; omitted, every event of it', async () => {
  const o = await makeOwner(app.db);
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { events: [] }) }), 'events');
  // Well-formed names the areas do not declare would never fire: refused, naming the entry.
  for (const bad of ['payment', 'Payment.Succeeded', 'payment succeeded', '*', 'invoice.paid', 'widget_alert.created', 'payment.created']) {
    const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { events: ['payment.succeeded', bad] }) });
    badRequest(res, 'events.1');
  }
  const ok = await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId, { events: ['plan.created', 'plan.deleted'] }) });
  assert.is(ok.status, 201, JSON.stringify(ok.body));
  assert.equal(ok.body.events, ['plan.created', 'plan.deleted']);
  const every = await app.request('POST', '/webhooks', { token: o.key, body: { account_id: o.accountId, url: 'https://e.com/h' } });
  assert.is(every.status, 201, JSON.stringify(every.body));
  const catalogue = Object.keys(specData.events).sort();
  assert.equal(every.body.events, catalogue);
  for (const name of ['payment.succeeded', 'plan.deleted', 'checkout_configuration.created', 'membership.activated']) {
    assert.ok(catalogue.includes(name), name);
  }
  // The published document of each version lists the catalogue as the accepted values.
  const doc = JSON.parse(readOpenApiDocument(join(projectRoot, 'generated'), '2026-09-06'));
  const items = doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items;
  assert.equal(items.enum, catalogue);
});

t('account_id defaults to an API key\'s own account; a user token must name one; url is required; other accounts are 404', async () => {
  const o = await makeOwner(app.db);
  const own = await app.request('POST', '/webhooks', { token: o.key, body: { url: 'https://e.com/h', events: ['payment.succeeded'] } });
  assert.is(own.status, 201, JSON.stringify(own.body));
  assert.is(own.body.account_id, o.accountId);
  const byUser = await app.request('POST', '/webhooks', { token: o.token, version: headVersion(), body: { url: 'https://e.com/h' } });
  badRequest(byUser, 'account_id');
  assert.match(byUser.body.error.message, /user token/);
  badRequest(await app.request('POST', '/webhooks', { token: o.key, body: { account_id: o.accountId, events: ['payment.succeeded'] } }), 'url');
  const other = await makeOwner(app.db);
  const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(other.accountId) });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'account_id');
  const stranger = await makeUser(app.db);
  assert.is((await app.request('POST', '/webhooks', { token: stranger.token, version: headVersion(), body: hook(o.accountId) })).status, 404);
});

t('webhook:manage is required', async () => {
  const o = await makeOwner(app.db);
  const viewerKey = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const byKey = await app.request('POST', '/webhooks', { token: viewerKey.secret, body: hook(o.accountId) });
  assert.is(byKey.status, 403);
  assert.is(byKey.body.error.type, 'permission_denied');
  assert.match(byKey.body.error.message, /webhook:manage/);
  const defaulted = await app.request('POST', '/webhooks', { token: viewerKey.secret, body: { url: 'https://e.com/h' } });
  assert.is(defaulted.status, 403, 'the API key\'s own account is checked too');
  assert.match(defaulted.body.error.message, /webhook:manage/);
  const moderator = await addMember(app, o.accountId, 'moderator');
  const byUser = await app.request('POST', '/webhooks', { token: moderator.token, version: headVersion(), body: hook(o.accountId) });
  assert.is(byUser.status, 403);
  assert.match(byUser.body.error.message, /webhook:manage/);
});

t('a parent\'s key may subscribe for a connected account', async () => {
  const o = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: o.accountId, title: 'Child' });
  const res = await app.request('POST', '/webhooks', { token: o.key, body: hook(child.id) });
  assert.is(res.status, 201);
  assert.is(res.body.account_id, child.id);
});

t('creating a subscription emits no event', async () => {
  const o = await makeOwner(app.db);
  const before = await app.db('events').count<{ count: number }[]>('* as count');
  assert.is((await app.request('POST', '/webhooks', { token: o.key, body: hook(o.accountId) })).status, 201);
  const after = await app.db('events').count<{ count: number }[]>('* as count');
  assert.equal(after, before);
});

t('Idempotency-Key: the same body replays the same subscription; a different body is an idempotency_error', async () => {
  const o = await makeOwner(app.db);
  const first = await app.request('POST', '/webhooks', { token: o.key, idempotencyKey: 'hook-create-1', body: hook(o.accountId) });
  assert.is(first.status, 201);
  assert.is(first.headers.get('idempotent-replayed'), null);
  const replay = await app.request('POST', '/webhooks', { token: o.key, idempotencyKey: 'hook-create-1', body: hook(o.accountId) });
  assert.is(replay.status, 201);
  assert.is(replay.body.id, first.body.id);
  assert.is(replay.headers.get('idempotent-replayed'), 'true');
  assert.is((await app.db('webhooks').where({ account_id: o.accountId })).length, 1);

  const different = await app.request('POST', '/webhooks', {
    token: o.key, idempotencyKey: 'hook-create-1', body: hook(o.accountId, { url: 'https://example.com/other' }),
  });
  assert.is(different.status, 400);
  assert.is(different.body.error.type, 'idempotency_error');
  assert.is((await app.db('webhooks').where({ account_id: o.accountId })).length, 1);
});

t.run();
