// save_setup_intent on the real worker: processing -> succeeded, requires_action or canceled.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';
import { makeConfirmationToken, makeMembership, makePaymentMethod, waitFor, type Behaviour } from '../memberships/fixtures.js';

const t = suite('save_setup_intent on the worker');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

async function settled(o: { key: string }, id: string) {
  return waitFor(async () => {
    const res = await call('GET', `/setup_intents/${id}`, { token: o.key });
    return res.body.status !== 'processing' ? res.body : null;
  });
}

t('a good card is saved for the member: succeeded, payment_method_id, setup_intent.succeeded', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const created = await call('POST', '/setup_intents', { token: o.key, body: {
    account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId), user_id: buyer.id,
  } });
  assert.is(created.body.status, 'processing');
  const done = await settled(o, created.body.id);
  assert.is(done.status, 'succeeded');
  assert.match(done.payment_method_id, /^payt_/);
  assert.is(done.last_setup_error, null);
  const method = await app.db('payment_methods').where({ id: done.payment_method_id }).first();
  assert.is(method.member_id, created.body.member_id);
  assert.is(method.account_id, o.accountId);
  assert.is(method.test_behaviour, 'succeeds');
  const event = await app.db('events').where({ type: 'setup_intent.succeeded' }).whereRaw("data->>'id' = ?", [done.id]).first();
  assert.is(event.account_id, o.accountId);
  assert.is(event.data.payment_method_id, done.payment_method_id);
});

t('refused cards are canceled with last_setup_error; 3D Secure waits in requires_action', async () => {
  const o = await makeOwner(app.db);
  const run = async (behaviour: Behaviour) => {
    const res = await call('POST', '/setup_intents', { token: o.key, body: {
      account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId, behaviour),
    } });
    return settled(o, res.body.id);
  };
  const declined = await run('declined');
  assert.is(declined.status, 'canceled');
  assert.is(declined.last_setup_error.code, 'card_declined');
  const poor = await run('insufficient_funds');
  assert.is(poor.status, 'canceled');
  assert.is(poor.last_setup_error.code, 'insufficient_funds');
  const challenged = await run('requires_3ds');
  assert.is(challenged.status, 'requires_action');
  assert.is(challenged.next_action.type, 'redirect_to_url');
  assert.ok(await app.db('events').where({ type: 'setup_intent.requires_action' }).whereRaw("data->>'id' = ?", [challenged.id]).first());
  assert.ok(await app.db('events').where({ type: 'setup_intent.canceled' }).whereRaw("data->>'id' = ?", [declined.id]).first());
});

t('a saved method without a member gains the buyer; the task leaves settled intents alone', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const payt = await makePaymentMethod(app, o.accountId);
  const res = await call('POST', '/setup_intents', { token: o.key, body: { account_id: o.accountId, payment_method_id: payt, member_id: m.memberId } });
  const done = await settled(o, res.body.id);
  assert.is(done.status, 'succeeded');
  assert.is(done.payment_method_id, payt);
  assert.is((await app.db('payment_methods').where({ id: payt }).first()).member_id, m.memberId);
  const eventsBefore = (await app.db('events').whereRaw("data->>'id' = ?", [done.id])).length;
  await saveSetupIntent(app.db, done.id);
  assert.is((await app.db('setup_intents').where({ id: done.id }).first()).status, 'succeeded');
  assert.is((await app.db('events').whereRaw("data->>'id' = ?", [done.id])).length, eventsBefore);
});

t.run();
