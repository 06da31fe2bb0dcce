// Plain operations over HTTP: what the generated handlers and runtime/plain do beyond the areas' own tests (which
// cover each operation's behaviour): one statement per read, writes only when something differs, hooks in the
// request's transaction, and ownership through runtime/ownership.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { headVersion } from '../../runtime/versions.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { createProduct, createVariant, eventTypes, expectError, expectStatus } from '../catalogue/support.js';
import { advertiser, campaignBody, created } from '../ads/ads-fixtures.js';

const t = suite('runtime: plain operations');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** The SQL texts the server sends to PostgreSQL while `work` runs (the server runs in this process). */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    seen.push(typeof first === 'string' ? first : first?.text ?? '');
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

t('a retrieve reads the resource and its relations in one statement; a list pages them in one more', async () => {
  const o = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId);
  const one = await statementsDuring(() => app.request('GET', `/products/${p.id}`, { version: headVersion(), token: o.key }));
  const reads = one.filter((s) => s.includes('"products"'));
  assert.is(reads.length, 1, one.join('\n'));
  assert.match(reads[0], 'join "accounts" as "account"');
  const list = await statementsDuring(() => app.request('GET', '/products', { version: headVersion(), token: o.key, query: { account_id: o.accountId } }));
  assert.is(list.filter((s) => s.includes('"products"')).length, 1, list.join('\n'));
});

t('an update that changes nothing writes nothing and records no event; a change writes once', async () => {
  const o = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId, { metadata: { a: 1 } });
  const same = expectStatus(await app.request('PATCH', `/products/${p.id}`, {
    version: headVersion(), token: o.key, body: { title: p.title, metadata: { a: 1 } },
  }), 200);
  assert.equal(same, p);
  assert.equal(await eventTypes(app, o.accountId), ['product.created']);
  const changed = expectStatus(await app.request('PATCH', `/products/${p.id}`, {
    version: headVersion(), token: o.key, body: { metadata: { a: null, b: 'x' } },
  }), 200);
  assert.equal(changed.metadata, { b: 'x' });
  assert.ok(changed.updated_at >= p.updated_at);
  assert.equal(await eventTypes(app, o.accountId), ['product.created', 'product.updated']);
});

t('a webhook update runs its hook before the write, and a refused one writes nothing', async () => {
  const o = await makeOwner(app.db);
  const hook = expectStatus(await app.request('POST', '/webhooks', { token: o.key, body: { url: 'https://example.com/hook' } }), 201);
  expectError(await app.request('PATCH', `/webhooks/${hook.id}`, { version: headVersion(), token: o.key, body: { url: 'http://example.com/x', enabled: false } }),
    400, 'invalid_request', 'url');
  const kept = expectStatus(await app.request('GET', `/webhooks/${hook.id}`, { version: headVersion(), token: o.key }), 200);
  assert.is(kept.enabled, true);
  const pinned = expectStatus(await app.request('PATCH', `/webhooks/${hook.id}`, {
    version: headVersion(), token: o.key, body: { api_version_date: '2026-07-21', events: ['product.created', 'product.created'] },
  }), 200);
  assert.is(pinned.api_version_date, '2026-07-20', 'a date between versions pins the version in force on it');
  assert.equal(pinned.events, ['product.created']);
  assert.is(pinned.secret, null);
});

t('a delete\'s hook writes in the same transaction; the declared event carries the resource as it was', async () => {
  const o = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId);
  const v = await createVariant(app, o.key, o.accountId, p.id);
  expectStatus(await app.request('DELETE', `/products/${p.id}`, { version: headVersion(), token: o.key }), 200);
  expectError(await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  const [event] = await app.db('events').where({ account_id: o.accountId, type: 'product.deleted' });
  assert.equal(event.data, p);
  expectError(await app.request('DELETE', `/products/${p.id}`, { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
});

t('objects of accounts the caller cannot see are 404 to every plain kind; a missing scope is 403', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId);
  for (const [method, body] of [['GET', undefined], ['PATCH', { title: 'x' }], ['DELETE', undefined]] as const) {
    const res = await app.request(method, `/products/${p.id}`, { version: headVersion(), token: stranger.key, body });
    expectError(res, 404, 'not_found', 'id');
    assert.is(res.body.error.message, `No such product: '${p.id}'`);
  }
  const listed = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: stranger.key }), 200);
  assert.equal(listed.data, []);
});

t('a declared fill computes a page\'s fields in one statement, whatever the page\'s size; a retrieve shares it', async () => {
  const o = await advertiser(app);
  const reads = async (path: string, query: Record<string, string>) => {
    let body: any;
    const seen = await statementsDuring(async () => {
      body = expectStatus(await app.request('GET', path, { version: headVersion(), token: o.key, query }), 200);
    });
    return { body, filled: seen.filter((s) => s.includes('ad_delivery_')), listed: seen.filter((s) => /from "ad_campaigns"/.test(s)) };
  };
  const one = await created(app, o, '/ad_campaigns', campaignBody(o, { title: 'One' }));
  const single = await reads('/ad_campaigns', { account_id: o.accountId });
  for (let i = 0; i < 4; i++) await created(app, o, '/ad_campaigns', campaignBody(o, { title: `More ${i}` }));
  const page = await reads('/ad_campaigns', { account_id: o.accountId, first: '5' });
  assert.is(page.body.data.length, 5);
  assert.is(single.filled.length, 1, single.filled.join('\n'));
  assert.is(page.filled.length, 1, 'one statement fills five campaigns, as it fills one');
  assert.is(page.listed.length, 1, page.listed.join('\n'));
  for (const c of page.body.data) assert.equal([c.delivery_status, c.spend, c.return_on_ad_spend], ['draft', 0, 0]);
  const retrieved = await reads(`/ad_campaigns/${one.id}`, {});
  assert.is(retrieved.filled.length, 1);
  assert.equal(retrieved.body, page.body.data.find((c: { id: string }) => c.id === one.id));
});

t('a fill is made from the query before anything is read: a bad parameter is a 400 even for an unknown id', async () => {
  const o = await advertiser(app);
  const bad = { stats_from: '2026-03-02T00:00:00Z', stats_to: '2026-03-01T00:00:00Z' };
  let res: any;
  const seen = await statementsDuring(async () => {
    res = await app.request('GET', '/ad_campaigns/adcamp_unknown', { version: headVersion(), token: o.key, query: bad });
  });
  expectError(res, 400, 'invalid_request', 'stats_to');
  assert.is(seen.filter((s) => s.includes('ad_campaigns')).length, 0, seen.join('\n'));
});

t.run();
