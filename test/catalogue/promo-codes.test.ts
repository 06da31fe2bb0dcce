import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { clientIdOf, pay } from '../payments/payment-fixtures.js';
import { createProduct, createVariant, expectError, expectStatus, eventTypes, createdInOrder } from './support.js';
import { resources } from '../../generated/resources.js';

const t = suite('promo codes');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const future = () => new Date(Date.now() + 86_400_000).toISOString();

async function createCode(token: string, accountId: string, extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/promo_codes', { version: headVersion(), token, body: { account_id: accountId, code: `C${Math.random().toString(36).slice(2, 10)}`, percent_off: 10, ...extra } });
  return expectStatus(res, 201);
}

t('create a fixed and a percentage code; the code is upper-cased and unique per account', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const variant = await createVariant(app, o.key, o.accountId, product.id);
  const expires = future();
  const fixed = expectStatus(await app.request('POST', '/promo_codes', {
    token: o.key,
    body: { account_id: o.accountId, code: 'spring-10', amount_off: 1000, currency: 'eur', product_id: product.id,
      plan_id: variant.id, max_redemptions: 50, expires_at: expires },
  }), 201);
  assert.match(fixed.id, /^promo_/);
  assert.is(fixed.code, 'SPRING-10');
  assert.is(fixed.status, 'active');
  assert.equal(fixed.amount_off, { amount: 1000, currency: 'eur', decimals: 2, display_decimals: 2 });
  assert.is(fixed.percent_off, null);
  assert.is(fixed.product_id, product.id);
  assert.is(fixed.plan_id, variant.id);
  assert.is(fixed.max_redemptions, 50);
  assert.is(fixed.redemptions, 0);
  assert.is(fixed.expires_at, expires);
  const pct = expectStatus(await app.request('POST', '/promo_codes', {
    token: o.key, body: { account_id: o.accountId, code: 'HALF', percent_off: 12.5 },
  }), 201);
  assert.is(pct.percent_off, 12.5);
  assert.is(pct.amount_off, null);
  assert.is(pct.product_id, null);
  assert.is(pct.max_redemptions, null);
  assert.is(pct.expires_at, null);
  const taken = await app.request('POST', '/promo_codes', { version: headVersion(), token: o.key, body: { account_id: o.accountId, code: 'half', percent_off: 5 } });
  expectError(taken, 409, 'conflict', 'code');
  assert.is(taken.body.error.message, "This account already has a promo code 'HALF'");
  const other = await makeOwner(app.db);
  expectStatus(await app.request('POST', '/promo_codes', { version: headVersion(), token: other.key, body: { account_id: other.accountId, code: 'HALF', percent_off: 5 } }), 201);
  assert.equal(await eventTypes(app, o.accountId), ['product.created', 'plan.created', 'promo_code.created', 'promo_code.created']);
  assert.equal(expectStatus(await app.request('GET', `/promo_codes/${fixed.id}`, { version: headVersion(), token: o.token }), 200), fixed);
});

t('create refuses invalid discounts, restrictions and expiries, naming the field', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const product2 = await createProduct(app, o.key, o.accountId);
  const variant2 = await createVariant(app, o.key, o.accountId, product2.id);
  const foreignProduct = await createProduct(app, other.key, other.accountId);
  const foreignVariant = await createVariant(app, other.key, other.accountId, foreignProduct.id);
  const send = (body: Record<string, unknown>) => app.request('POST', '/promo_codes', { version: headVersion(), token: o.key, body: { account_id: o.accountId, code: 'X1', ...body } });
  expectError(await send({}), 400, 'invalid_request', 'amount_off');
  expectError(await send({ amount_off: 100, currency: 'usd', percent_off: 5 }), 400, 'invalid_request', 'percent_off');
  expectError(await send({ amount_off: 100 }), 400, 'invalid_request', 'currency');
  expectError(await send({ percent_off: 5, currency: 'usd' }), 400, 'invalid_request', 'currency');
  expectError(await send({ percent_off: 0 }), 400, 'invalid_request', 'percent_off');
  expectError(await send({ percent_off: 100.5 }), 400, 'invalid_request', 'percent_off');
  expectError(await send({ percent_off: 10.555 }), 400, 'invalid_request', 'percent_off');
  expectError(await send({ amount_off: 0, currency: 'usd' }), 400, 'invalid_request', 'amount_off');
  expectError(await send({ percent_off: 5, expires_at: new Date(Date.now() - 1000).toISOString() }), 400, 'invalid_request', 'expires_at');
  expectError(await send({ percent_off: 5, expires_at: '1700000000' }), 400, 'invalid_request', 'expires_at');
  expectError(await send({ percent_off: 5, max_redemptions: 0 }), 400, 'invalid_request', 'max_redemptions');
  expectError(await send({ percent_off: 5, code: 'has space' }), 400, 'invalid_request', 'code');
  expectError(await send({ percent_off: 5, product_id: foreignProduct.id }), 404, 'not_found', 'product_id');
  expectError(await send({ percent_off: 5, plan_id: foreignVariant.id }), 404, 'not_found', 'plan_id');
  expectError(await send({ percent_off: 5, product_id: product.id, plan_id: variant2.id }), 400, 'invalid_request', 'plan_id');
  expectError(await app.request('POST', '/promo_codes', { version: headVersion(), token: o.key, body: { account_id: other.accountId, code: 'X', percent_off: 5 } }),
    404, 'not_found', 'account_id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('POST', '/promo_codes', { version: headVersion(), token: viewer.secret, body: { account_id: o.accountId, code: 'X', percent_off: 5 } }),
    403, 'permission_denied');
  expectError(await app.request('POST', '/promo_codes', { body: { account_id: o.accountId, code: 'X', percent_off: 5 } }), 401, 'authentication_required');
  assert.is((await app.db('promo_codes').where({ account_id: o.accountId })).length, 0);
});

t('activate, deactivate and DELETE (archive) follow the lifecycle; archived is final', async () => {
  const o = await makeOwner(app.db);
  const code = await createCode(o.key, o.accountId);
  const again = expectStatus(await app.request('POST', `/promo_codes/${code.id}/activate`, { version: headVersion(), token: o.key }), 200);
  assert.equal(again, code, 'activating an active code is a no-op');
  const off = expectStatus(await app.request('POST', `/promo_codes/${code.id}/deactivate`, { version: headVersion(), token: o.key }), 200);
  assert.is(off.status, 'inactive');
  assert.equal(expectStatus(await app.request('POST', `/promo_codes/${code.id}/deactivate`, { version: headVersion(), token: o.key }), 200), off);
  const on = expectStatus(await app.request('POST', `/promo_codes/${code.id}/activate`, { version: headVersion(), token: o.key }), 200);
  assert.is(on.status, 'active');
  const archived = expectStatus(await app.request('DELETE', `/promo_codes/${code.id}`, { version: headVersion(), token: o.key }), 200);
  assert.is(archived.status, 'archived');
  assert.is(archived.id, code.id);
  assert.equal(expectStatus(await app.request('DELETE', `/promo_codes/${code.id}`, { version: headVersion(), token: o.key }), 200), archived);
  const refused = await app.request('POST', `/promo_codes/${code.id}/activate`, { version: headVersion(), token: o.key });
  expectError(refused, 400, 'invalid_state', 'status');
  assert.match(refused.body.error.message, /archived cannot activate/);
  expectError(await app.request('POST', `/promo_codes/${code.id}/deactivate`, { version: headVersion(), token: o.key }), 400, 'invalid_state', 'status');
  assert.is(expectStatus(await app.request('GET', `/promo_codes/${code.id}`, { version: headVersion(), token: o.key }), 200).status, 'archived');
  assert.equal((await eventTypes(app, o.accountId)).filter((e) => e === 'promo_code.updated').length, 3);
  // No update by POST: the path answers other methods (405, with Allow).
  const wrongMethod = await app.request('POST', `/promo_codes/${code.id}`, { version: headVersion(), token: o.key, body: { status: 'active' } });
  expectError(wrongMethod, 405, 'method_not_allowed');
  assert.is(wrongMethod.headers.get('allow'), 'DELETE, GET, HEAD, OPTIONS');
});

t('status moves and reads: 404 for strangers, 403 without the scope, 401 without credentials', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeOwner(app.db);
  const code = await createCode(o.key, o.accountId);
  for (const [method, path] of [['GET', ''], ['DELETE', ''], ['POST', '/activate'], ['POST', '/deactivate']]) {
    expectError(await app.request(method, `/promo_codes/${code.id}${path}`, { version: headVersion(), token: stranger.key }), 404, 'not_found', 'id');
    expectError(await app.request(method, `/promo_codes/${code.id}${path}`, {}), 401, 'authentication_required');
  }
  expectError(await app.request('GET', '/promo_codes/promo_missing', { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('GET', `/promo_codes/${code.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('POST', `/promo_codes/${code.id}/deactivate`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('DELETE', `/promo_codes/${code.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  const reader = await makeKey(app.db, { accountId: o.accountId, role: null, statements: [{ effect: 'allow', actions: ['promo_code:basic:read'] }] });
  expectStatus(await app.request('GET', `/promo_codes/${code.id}`, { version: headVersion(), token: reader.secret }), 200);
  expectError(await app.request('POST', `/promo_codes/${code.id}/activate`, { version: headVersion(), token: reader.secret }), 403, 'permission_denied');
});

t('list: account_id required, filters, and every sort order paged with keyset cursors', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const variant = await createVariant(app, o.key, o.accountId, product.id);
  const codes = [];
  for (const [i, name] of ['DELTA', 'ALPHA', 'CHARLIE', 'BRAVO', 'ECHO'].entries()) {
    codes.push(await createCode(o.key, o.accountId, { code: name, ...(i === 1 ? { product_id: product.id } : {}), ...(i === 2 ? { plan_id: variant.id } : {}) }));
  }
  // Redemption counts with a tie (ALPHA and ECHO at 3) so the id tie-break is exercised.
  const counts: Record<string, number> = { DELTA: 7, ALPHA: 3, CHARLIE: 0, BRAVO: 9, ECHO: 3 };
  // Each redemption is a buyer's payment with the code (counted when the payment is created).
  const seller = { key: o.key, accountId: o.accountId, clientId: await clientIdOf(app, o.accountId) };
  for (const c of codes) {
    for (let i = 0; i < counts[c.code]; i++) await pay(app, seller, { plan_id: variant.id, promo_code: c.code }, { collect: false });
  }
  await createdInOrder(app, 'promo_codes', codes.map((c) => c.id));
  await app.request('POST', `/promo_codes/${codes[3].id}/deactivate`, { version: headVersion(), token: o.key });
  await app.request('DELETE', `/promo_codes/${codes[4].id}`, { version: headVersion(), token: o.key });

  const names = (res: any) => expectStatus(res, 200).data.map((c: any) => c.code);
  const list = (query: Record<string, string | number>) => app.request('GET', '/promo_codes', { version: headVersion(), token: o.key, query: { account_id: o.accountId, ...query } });
  assert.equal(names(await list({})), ['ECHO', 'BRAVO', 'CHARLIE', 'ALPHA', 'DELTA']);
  assert.equal(names(await list({ status: 'active' })), ['CHARLIE', 'ALPHA', 'DELTA']);
  assert.equal(names(await list({ status: 'archived' })), ['ECHO']);
  assert.equal(names(await list({ product_id: product.id })), ['ALPHA']);
  assert.equal(names(await list({ plan_id: variant.id })), ['CHARLIE']);
  const stamps = await app.db('promo_codes').whereIn('id', [codes[1].id, codes[3].id]).select('id', 'created_at');
  const stamp = (id: string) => stamps.find((r) => r.id === id).created_at as string;
  const [a, b] = [stamp(codes[1].id), stamp(codes[3].id)];
  assert.equal(names(await list({ created_after: a, created_before: b })), ['CHARLIE']);

  /** Every page of an ordering, forwards two at a time, then back from the end. */
  async function walk(order: string, direction: string): Promise<string[]> {
    const out: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = expectStatus(await list({ order, direction, first: 2, ...(after ? { after } : {}) }), 200);
      out.push(...page.data.map((c: any) => c.code));
      if (!page.page_info.has_next_page) {
        const back = expectStatus(await list({ order, direction, last: 2, before: page.page_info.start_cursor }), 200);
        assert.equal(back.data.map((c: any) => c.code), out.slice(-2 - page.data.length, -page.data.length));
        return out;
      }
      after = page.page_info.end_cursor;
    }
    throw new Error('did not end');
  }
  assert.equal(await walk('code', 'asc'), ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO']);
  assert.equal(await walk('code', 'desc'), ['ECHO', 'DELTA', 'CHARLIE', 'BRAVO', 'ALPHA']);
  const byRedemptions = await walk('redemptions', 'desc');
  assert.equal(byRedemptions.slice(0, 2), ['BRAVO', 'DELTA']);
  assert.equal(byRedemptions.slice(2, 4).sort(), ['ALPHA', 'ECHO']);
  assert.equal(byRedemptions[4], 'CHARLIE');
  const asc = await walk('redemptions', 'asc');
  assert.equal(asc, [...byRedemptions].reverse());
  assert.equal(await walk('created_at', 'asc'), ['DELTA', 'ALPHA', 'CHARLIE', 'BRAVO', 'ECHO']);

  const codeCursor = expectStatus(await list({ order: 'code', first: 1 }), 200).page_info.end_cursor;
  expectError(await list({ order: 'redemptions', after: codeCursor }), 400, 'invalid_request', 'after');
  expectError(await list({ order: 'created_at', after: codeCursor }), 400, 'invalid_request', 'after');
  expectError(await list({ order: 'volume' }), 400, 'invalid_request', 'order');
  expectError(await list({ status: 'deleted' }), 400, 'invalid_request', 'status');
  expectError(await app.request('GET', '/promo_codes', { version: headVersion(), token: o.key }), 400, 'invalid_request', 'account_id');
  const stranger = await makeOwner(app.db);
  expectError(await app.request('GET', '/promo_codes', { version: headVersion(), token: stranger.key, query: { account_id: o.accountId } }), 404, 'not_found', 'account_id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('GET', '/promo_codes', { version: headVersion(), token: viewer.secret, query: { account_id: o.accountId } }), 403, 'permission_denied');
  expectError(await app.request('GET', '/promo_codes', { query: { account_id: o.accountId } }), 401, 'authentication_required');
});

t('the list reads its rows for the view alone (viewSelect), and they render as the whole rows do', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  await createCode(o.key, o.accountId, { percent_off: undefined, amount_off: 250, currency: 'usd', product_id: product.id, max_redemptions: 3, expires_at: future() });
  await createCode(o.key, o.accountId);
  assert.ok(resources.PromoCode.viewSelect && !resources.PromoCode.viewSelect.includes('*'), resources.PromoCode.viewSelect);
  for (const order of ['created_at', 'code', 'redemptions']) {
    const page = expectStatus(await app.request('GET', '/promo_codes', { version: headVersion(), token: o.key, query: { account_id: o.accountId, order } }), 200);
    assert.is(page.data.length, 2);
    for (const item of page.data) {
      const [whole] = (await app.db.raw(resources.PromoCode.byId.replace('$1', '?'), [item.id])).rows;
      assert.equal(item, JSON.parse(JSON.stringify(resources.PromoCode.view(whole))), `${order}: ${item.id}`);
    }
  }
});

t.run();
