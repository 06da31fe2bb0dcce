// POST /setup_intents/{id}/confirm_action: the sandbox buyer finishing (or failing) 3D Secure on a requires_action
// setup intent. Intents are created over HTTP and run through the processor's save (as the worker would) directly.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';
import { makeConfirmationToken, makeMembership, makePaymentMethod, type Behaviour } from '../memberships/fixtures.js';

const t = suite('POST /setup_intents/{id}/confirm_action');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const confirm = (token: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/setup_intents/${id}/confirm_action`, { token, body });

const eventsFor = (type: string, id: string) => app.db('events').where({ type }).whereRaw("data->>'id' = ?", [id]);

/** A setup intent created over HTTP (processing), then settled by the processor unless `settle` is false. */
async function setupIntent(o: { key: string; accountId: string }, body: Record<string, unknown>, settle = true) {
  const created = await call('POST', '/setup_intents', { token: o.key, body: { account_id: o.accountId, ...body } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  if (settle) await saveSetupIntent(app.db, created.body.id);
  return (await call('GET', `/setup_intents/${created.body.id}`, { token: o.key })).body;
}

const challenged = async (o: { key: string; accountId: string }, extra: Record<string, unknown> = {}, behaviour: Behaviour = 'requires_3ds') => {
  const si = await setupIntent(o, { confirmation_token: await makeConfirmationToken(app, o.accountId, behaviour), ...extra });
  assert.is(si.status, 'requires_action');
  assert.ok(si.next_action);
  return si;
};

t('succeed: the method is saved for the member, listed and chargeable; succeeded with setup_intent.succeeded', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const si = await challenged(o, { user_id: buyer.id, return_url: 'https://shop.example/back' });
  assert.is(si.payment_method_id, null);
  assert.is((await eventsFor('setup_intent.succeeded', si.id)).length, 0);

  const res = await confirm(o.key, si.id, { outcome: 'succeed' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.id, si.id);
  assert.is(res.body.status, 'succeeded');
  assert.is(res.body.next_action, null);
  assert.is(res.body.last_setup_error, null);
  assert.match(res.body.payment_method_id, /^payt_/);
  assert.is(res.body.member_id, si.member_id);
  assert.is(res.body.client_secret, si.client_secret, 'the payment:charge caller sees the secret, as on retrieve');
  assert.ok(Date.parse(res.body.updated_at) >= Date.parse(si.updated_at));

  // Saved as the processor saves a token's card: a new method of the buyer's member, with the card's facts.
  const method = await app.db('payment_methods').where({ id: res.body.payment_method_id }).first();
  assert.is(method.account_id, o.accountId);
  assert.is(method.member_id, si.member_id);
  assert.is(method.user_id, buyer.id);
  assert.is(method.last4, '3155', 'the 3D Secure test card');
  assert.is(method.test_behaviour, 'requires_3ds');

  const listed = await call('GET', '/payment_methods', { token: o.key, query: { account_id: o.accountId, member_id: si.member_id } });
  assert.is(listed.status, 200);
  assert.equal(listed.body.data.map((m: any) => m.id), [res.body.payment_method_id]);

  const charge = await call('POST', '/payments', { token: o.key, body: {
    account_id: o.accountId, member_id: si.member_id, payment_method_id: res.body.payment_method_id, amount: 400, currency: 'usd',
  } });
  assert.is(charge.status, 201, JSON.stringify(charge.body));
  assert.is(charge.body.payment_method_id, res.body.payment_method_id);

  const events = await eventsFor('setup_intent.succeeded', si.id);
  assert.is(events.length, 1);
  assert.is(events[0].account_id, o.accountId);
  assert.is(events[0].data.status, 'succeeded');
  assert.is(events[0].data.payment_method_id, res.body.payment_method_id);
  assert.is(events[0].data.client_secret, null, 'events never carry the secret');

  const again = await call('GET', `/setup_intents/${si.id}`, { token: o.key });
  assert.equal(again.body, res.body);
});

t('succeed on an intent made from a saved method keeps that method (which gains the buyer as member)', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const payt = await makePaymentMethod(app, o.accountId, { behaviour: 'requires_3ds' });
  const si = await setupIntent(o, { payment_method_id: payt, member_id: m.memberId });
  assert.is(si.status, 'requires_action');
  const before = await app.db('payment_methods').where({ account_id: o.accountId }).count<{ count: string }[]>('* as count');
  const res = await confirm(o.key, si.id, { outcome: 'succeed' });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'succeeded');
  assert.is(res.body.payment_method_id, payt);
  assert.is((await app.db('payment_methods').where({ id: payt }).first()).member_id, m.memberId);
  const after = await app.db('payment_methods').where({ account_id: o.accountId }).count<{ count: string }[]>('* as count');
  assert.is(after[0].count, before[0].count, 'no new method');
});

t('fail: canceled with authentication_failed, next_action cleared, nothing saved, setup_intent.canceled', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const si = await challenged(o, { user_id: buyer.id });
  const res = await confirm(o.key, si.id, { outcome: 'fail' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.status, 'canceled');
  assert.is(res.body.next_action, null);
  assert.is(res.body.payment_method_id, null);
  assert.is(res.body.last_setup_error.code, 'authentication_failed');
  assert.type(res.body.last_setup_error.message, 'string');
  assert.ok(res.body.last_setup_error.message.length > 0);
  assert.is((await app.db('payment_methods').where({ account_id: o.accountId })).length, 0);
  const events = await eventsFor('setup_intent.canceled', si.id);
  assert.is(events.length, 1);
  assert.equal(events[0].data.last_setup_error, res.body.last_setup_error);
  assert.is((await eventsFor('setup_intent.succeeded', si.id)).length, 0);

  // Settled now: neither outcome moves it again.
  for (const outcome of ['succeed', 'fail']) {
    const again = await confirm(o.key, si.id, { outcome });
    assert.is(again.status, 400, outcome);
    assert.is(again.body.error.type, 'invalid_state');
  }
});

t('any status but requires_action is 400 invalid_state from the state machine, and nothing changes', async () => {
  const o = await makeOwner(app.db);
  const succeeded = await setupIntent(o, { confirmation_token: await makeConfirmationToken(app, o.accountId, 'succeeds') });
  assert.is(succeeded.status, 'succeeded');
  const processing = await setupIntent(o, { confirmation_token: await makeConfirmationToken(app, o.accountId) }, false);
  assert.is(processing.status, 'processing');
  const declined = await setupIntent(o, { confirmation_token: await makeConfirmationToken(app, o.accountId, 'declined') });
  assert.is(declined.status, 'canceled');
  for (const si of [succeeded, processing, declined]) {
    for (const outcome of ['succeed', 'fail']) {
      const res = await confirm(o.key, si.id, { outcome });
      assert.is(res.status, 400, `${si.status} ${outcome}`);
      assert.is(res.body.error.type, 'invalid_state');
      assert.is(res.body.error.param, 'status');
      assert.match(res.body.error.message, si.status);
      assert.equal((await call('GET', `/setup_intents/${si.id}`, { token: o.key })).body, si, 'unchanged');
    }
  }
  const methods = await app.db('payment_methods').where({ account_id: o.accountId });
  assert.equal(methods.map((m) => m.id), [succeeded.payment_method_id], 'only the processor saved one');
  // The processing one is still the worker's to settle.
  await saveSetupIntent(app.db, processing.id);
  assert.is((await call('GET', `/setup_intents/${processing.id}`, { token: o.key })).body.status, 'succeeded');
});

t('another account\'s setup intent (or an unknown id) is 404; without payment:charge 403; the buyer is 403', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const si = await challenged(o, { user_id: buyer.id });
  for (const [token, id] of [[other.key, si.id], [o.key, 'seti_missing']]) {
    const res = await confirm(token, id, { outcome: 'succeed' });
    assert.is(res.status, 404);
    assert.is(res.body.error.type, 'not_found');
    assert.is(res.body.error.param, 'id');
  }
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const denied = await confirm(viewer.secret, si.id, { outcome: 'succeed' });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const byBuyer = await confirm(buyer.token, si.id, { outcome: 'succeed' });
  assert.is(byBuyer.status, 403);
  assert.is((await call('POST', `/setup_intents/${si.id}/confirm_action`, { body: { outcome: 'succeed' } })).status, 401);
  assert.is((await call('GET', `/setup_intents/${si.id}`, { token: o.key })).body.status, 'requires_action', 'untouched');
});

t('outcome is required and must be succeed or fail (400 naming outcome)', async () => {
  const o = await makeOwner(app.db);
  const si = await challenged(o);
  for (const body of [{}, { outcome: 'maybe' }, { outcome: 'succeed', extra: 1 }]) {
    const res = await confirm(o.key, si.id, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.type, 'invalid_request');
    if (!('extra' in body)) assert.is(res.body.error.param, 'outcome');
  }
  assert.is((await call('GET', `/setup_intents/${si.id}`, { token: o.key })).body.status, 'requires_action');
});

t.run();
