// GET /users/{id}/recommend_actions over HTTP and through the official client: personal actions follow the user's
// rows (owning an account, asking for a referral link), business actions come from the accounts they own tagged with
// account_id and account_name, highest impact first; only the user themself asks (me, id or username).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeOwner, makeUser } from '../helpers/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';
import { sdk } from '../sdk/sdk-helpers.js';

const t = suite('user-recommended-actions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const ask = (token: string, id = 'me') => app.request('GET', `/users/${id}/recommend_actions`, { token, version: VERSION });
async function actions(token: string, id = 'me') {
  const res = await ask(token, id);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
}

t('a user without an account is asked to start one and to become an affiliate; a referral link drops the second', async () => {
  const u = await makeUser(app.db);
  const fresh = await actions(u.token);
  assert.equal(fresh.map((a) => [a.action, a.account_id, a.account_name, a.impact_score]),
    [['create_business', null, null, 95], ['become_affiliate', null, null, 40]]);
  assert.equal([fresh[0].cta, fresh[0].status, fresh[0].steps.map((s: any) => `${s.method} ${s.path}`)], ['/accounts', 'optional', ['POST /accounts']]);
  const link = await app.request('POST', '/partners/referral_requests', { token: u.token, version: VERSION, body: { request_type: 'link' } });
  assert.is(link.status, 201, JSON.stringify(link.body));
  assert.equal((await actions(u.token)).map((a) => a.action), ['create_business']);
});

t('an owner gets their accounts\' actions tagged with the account, pooled by impact; username and id name the same user', async () => {
  const o = await makeOwner(app.db, { title: 'First shop' });
  const second = await makeAccount(app.db, { ownerUserId: o.owner.id, title: 'Second shop' });
  const got = await actions(o.token);
  assert.not.ok(got.some((a) => a.action === 'create_business'), 'they own an account');
  const top = got.filter((a) => a.action === 'create_product');
  assert.equal(top.map((a) => [a.account_id, a.account_name, a.impact_score]), [[second.id, 'Second shop', 100], [o.accountId, 'First shop', 100]]);
  assert.equal(got.map((a) => a.impact_score), [...got.map((a) => a.impact_score)].sort((a, b) => b - a));
  assert.ok(got.some((a) => a.action === 'become_affiliate' && a.account_id === null));
  assert.equal(await actions(o.token, o.owner.id), got);
  assert.equal(await actions(o.token, o.owner.user.username.toUpperCase()), got);
  // Their product removes the action for that account only.
  const guide = await app.request('POST', '/products', { token: o.key, version: VERSION, body: { account_id: o.accountId, title: 'Guide' } });
  assert.is(guide.status, 201, JSON.stringify(guide.body));
  assert.equal((await actions(o.token)).filter((a) => a.action === 'create_product').map((a) => a.account_id), [second.id]);
});

t('another user\'s id or username is a 403 naming id; an API key is refused; the official client reads the same list', async () => {
  const [a, b] = [await makeUser(app.db), await makeUser(app.db)];
  for (const id of [b.id, b.user.username]) {
    const res = await ask(a.token, id);
    assert.equal([res.status, res.body.error.param], [403, 'id']);
  }
  const o = await makeOwner(app.db);
  const byKey = await ask(o.key);
  assert.ok(byKey.status === 401 || byKey.status === 403, String(byKey.status));
  const viaClient = await sdk(app, o.token).users.recommendActions('me');
  assert.equal(viaClient.data.map((x) => [x.action, x.account_id]), (await actions(o.token)).map((x) => [x.action, x.account_id]));
});

t.run();
