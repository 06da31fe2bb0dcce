// Reviews: left by a product's members with their own token, moderated by the sandbox moderator job, read by the
// account that sells the product.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { pay } from '../payments/payment-fixtures.js';
import { eventsOf, jobsFor, waitFor } from '../account_preferences/preference-fixtures.js';
import { MODERATE_TASK, moderateReview } from '../../handlers/reviews/moderate.js';

const t = suite('reviews');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** A seller with a product and a member of it. */
async function seller() {
  const o = await makeOwner(app.db);
  const member = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, member.id);
  return { ...o, member, productId: m.productId };
}
const leave = (token: string, body: Record<string, unknown>) => call('POST', '/reviews', { token, body });

t('a member leaves a review: pending, then the moderator publishes it', async () => {
  const s = await seller();
  const res = await leave(s.member.token, { product_id: s.productId, stars: 4, title: 'Good', description: 'Learned a lot' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.id, /^rev_/);
  assert.is(res.body.status, 'pending');
  assert.is(res.body.published_at, null);
  assert.equal(res.body.user, { id: s.member.id, name: s.member.user.name, username: s.member.user.username });
  assert.equal(res.body.product, { id: s.productId, title: 'Course' });
  assert.is(res.body.account_id, s.accountId);
  assert.is(res.body.paid_for_product, false);
  assert.ok(res.body.joined_at);
  assert.ok((await jobsFor(app.db, MODERATE_TASK)).some((j) => j.key === `${MODERATE_TASK}:${res.body.id}`));
  assert.is(await moderateReview(app.db, res.body.id), 'published');
  assert.is(await moderateReview(app.db, res.body.id), null);
  const read = await call('GET', `/reviews/${res.body.id}`, { token: s.key });
  assert.is(read.body.status, 'published');
  assert.ok(read.body.published_at);
  assert.is((await eventsOf(app.db, s.accountId, 'review.published')).length, 1);
  assert.is((await eventsOf(app.db, s.accountId, 'review.created')).length, 1);
});

t('the moderator removes a review marked [remove]', async () => {
  const s = await seller();
  const res = await leave(s.member.token, { product_id: s.productId, stars: 1, description: 'spam [remove]' });
  assert.is(await moderateReview(app.db, res.body.id), 'removed');
  const read = await call('GET', `/reviews/${res.body.id}`, { token: s.key });
  assert.equal([read.body.status, read.body.published_at], ['removed', null]);
});

t('the moderator job runs on the worker', async () => {
  const worker = await startTestApp({ worker: true });
  try {
    const o = await makeOwner(worker.db);
    const member = await makeUser(worker.db);
    const m = await makeMembership(worker, o.accountId, member.id);
    const res = await worker.request('POST', '/reviews', { token: member.token, version: headVersion(), body: { product_id: m.productId, stars: 5 } });
    assert.is(res.status, 201);
    const published = await waitFor(async () => {
      const r = await worker.request('GET', `/reviews/${res.body.id}`, { token: o.key, version: headVersion() });
      return r.body.status === 'published' ? r.body : null;
    });
    assert.ok(published.published_at);
  } finally {
    await worker.close();
  }
});

t('refusals: not a member 403, unknown product 404, second review 409, bad input 400, API keys 401/403; nothing written', async () => {
  const s = await seller();
  const stranger = await makeUser(app.db);
  const notMember = await leave(stranger.token, { product_id: s.productId, stars: 3 });
  assert.is(notMember.status, 403);
  const unknown = await leave(s.member.token, { product_id: 'prod_missing', stars: 3 });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error.param, 'product_id');
  for (const body of [{ product_id: s.productId, stars: 0 }, { product_id: s.productId, stars: 6 }, { product_id: s.productId }, { stars: 3 },
    { product_id: s.productId, stars: 3, title: '' }, { product_id: s.productId, stars: 3, status: 'published' }]) {
    const bad = await leave(s.member.token, body);
    assert.is(bad.status, 400, JSON.stringify(body));
  }
  const byKey = await call('POST', '/reviews', { token: s.key, body: { product_id: s.productId, stars: 3 } });
  assert.ok([401, 403].includes(byKey.status));
  assert.is((await app.db('reviews').where({ product_id: s.productId })).length, 0);
  assert.is((await leave(s.member.token, { product_id: s.productId, stars: 3 })).status, 201);
  const twice = await leave(s.member.token, { product_id: s.productId, stars: 5 });
  assert.is(twice.status, 409);
  assert.is((await app.db('reviews').where({ product_id: s.productId })).length, 1);
});

t('a member who paid for the product: paid_for_product true', async () => {
  const s = await seller();
  const plan = await app.db('plans').where({ product_id: s.productId }).first();
  const { client_id: clientId } = await app.db('accounts').where({ id: s.accountId }).first('client_id');
  // The member buys the product's variant through POST /payments, and the payment is collected.
  await pay(app, { ...s, clientId }, { plan_id: plan.id }, { buyerId: s.member.id });
  assert.ok(await app.db('payments').where({ product_id: s.productId, user_id: s.member.id, status: 'succeeded' }).first());
  const res = await leave(s.member.token, { product_id: s.productId, stars: 5 });
  assert.is(res.body.paid_for_product, true);
});

t('list: a product\'s reviews, newest first, star bounds inclusive; product_id required', async () => {
  const s = await seller();
  const ids: string[] = [];
  for (const stars of [1, 3, 5]) {
    const u = await makeUser(app.db);
    await makeMembership(app, s.accountId, u.id, { productId: s.productId, planId: (await app.db('plans').where({ product_id: s.productId }).first()).id });
    ids.push((await leave(u.token, { product_id: s.productId, stars })).body.id);
  }
  const all = await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId } });
  assert.equal(all.body.data.map((r: any) => r.id), [...ids].reverse());
  const mid = await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId, min_stars: 3, max_stars: 3 } });
  assert.equal(mid.body.data.map((r: any) => r.stars), [3]);
  const high = await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId, min_stars: 3 } });
  assert.equal(high.body.data.map((r: any) => r.stars), [5, 3]);
  const page = await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId, first: 2 } });
  const next = await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId, first: 2, after: page.body.page_info.end_cursor } });
  assert.equal([...page.body.data, ...next.body.data].map((r: any) => r.id), [...ids].reverse());
  assert.is((await call('GET', '/reviews', { token: s.key })).body.error.param, 'product_id');
  assert.is((await call('GET', '/reviews', { token: s.key, query: { product_id: s.productId, min_stars: 0 } })).body.error.param, 'min_stars');
});

t('another account\'s reviews are never visible (404, empty list); review:read is required (403)', async () => {
  const s = await seller();
  const review = (await leave(s.member.token, { product_id: s.productId, stars: 2 })).body;
  const other = await makeOwner(app.db);
  assert.is((await call('GET', `/reviews/${review.id}`, { token: other.key })).status, 404);
  assert.equal((await call('GET', '/reviews', { token: other.key, query: { product_id: s.productId } })).body.data, []);
  const noScope = await makeKey(app.db, { accountId: s.accountId, statements: [{ effect: 'allow', actions: ['stats:read'] }] });
  assert.is((await call('GET', `/reviews/${review.id}`, { token: noScope.secret })).status, 403);
  const reader = await makeKey(app.db, { accountId: s.accountId, statements: [{ effect: 'allow', actions: ['review:read'] }] });
  assert.is((await call('GET', `/reviews/${review.id}`, { token: reader.secret })).status, 200);
  assert.is((await call('GET', '/reviews/rev_missing', { token: s.key })).status, 404);
});

t.run();
