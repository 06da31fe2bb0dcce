// Saving payout methods at the same time: "the first one becomes the default" and "a nickname names one destination"
// hold under concurrent requests, each answered 201 or a 409 naming the conflict, never a 5xx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { VERSION } from './payout-fixtures.js';

const t = suite('payout methods: concurrent saves');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const PARALLEL = 8;

function save(token: string, owner: Record<string, string>, nickname: string, extra: Record<string, unknown> = {}) {
  return app.request('POST', '/payouts/methods', { token, version: VERSION, body: {
    ...owner, supported_payout_method_id: 'podst_us_ach', nickname,
    fields: { account_number: `0001234${nickname.length}`, routing_number: '110000000' }, ...extra } });
}

const defaults = async (token: string, query: Record<string, string>) => {
  const list = await app.request('GET', '/payouts/methods', { token, version: VERSION, query: { ...query, first: 100 } });
  assert.is(list.status, 200, JSON.stringify(list.body));
  return list.body.data.filter((m: { is_default: boolean }) => m.is_default).map((m: { id: string }) => m.id);
};

t('an account with none: parallel saves all succeed and exactly one becomes the default', async () => {
  const o = await makeOwner(app.db);
  const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => save(o.key, { account_id: o.accountId }, `Bank ${i}`)));
  assert.equal(results.map((r) => r.status), Array(PARALLEL).fill(201), JSON.stringify(results.map((r) => r.body)));
  const made = results.filter((r) => r.body.is_default).map((r) => r.body.id);
  assert.is(made.length, 1);
  assert.equal(await defaults(o.key, { account_id: o.accountId }), made);
});

t('a personal wallet with none: the same, through the user\'s own token', async () => {
  const alice = await makeUser(app.db);
  const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => save(alice.token, { user_id: alice.id }, `Mine ${i}`)));
  assert.equal(results.map((r) => r.status), Array(PARALLEL).fill(201), JSON.stringify(results.map((r) => r.body)));
  assert.is(results.filter((r) => r.body.is_default).length, 1);
  assert.is((await defaults(alice.token, { user_id: alice.id })).length, 1);
});

t('parallel saves each asking to be the default: all succeed, one default remains, and it is one of them', async () => {
  const o = await makeOwner(app.db);
  const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) =>
    save(o.key, { account_id: o.accountId }, `Default ${i}`, { is_default: true })));
  assert.equal(results.map((r) => r.status), Array(PARALLEL).fill(201), JSON.stringify(results.map((r) => r.body)));
  const [only] = await defaults(o.key, { account_id: o.accountId });
  assert.ok(results.some((r) => r.body.id === only));
  assert.is((await defaults(o.key, { account_id: o.accountId })).length, 1);
});

t('parallel saves with one nickname: one is saved, the rest are 409 naming nickname', async () => {
  const o = await makeOwner(app.db);
  const results = await Promise.all(Array.from({ length: PARALLEL }, () => save(o.key, { account_id: o.accountId }, 'Same name')));
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses, [201, ...Array(PARALLEL - 1).fill(409)], JSON.stringify(results.map((r) => r.body)));
  for (const r of results.filter((x) => x.status === 409)) assert.is(r.body.error.param, 'nickname');
  assert.is((await defaults(o.key, { account_id: o.accountId })).length, 1);
});

t.run();
