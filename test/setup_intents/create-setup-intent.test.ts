// POST /setup_intents: inputs, refusals, idempotency, and the version flag (saved during the request before
// 2026-08-28, in the background since).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeConfirmationToken, makeMembership, makePaymentMethod, type Behaviour } from '../memberships/fixtures.js';

const t = suite('POST /setup_intents');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (token: string, body: Record<string, unknown>, options: RequestOptions = {}) =>
  call('POST', '/setup_intents', { token, body, ...options });

t('201 processing with the card facts and a client secret; the save is queued as a job', async () => {
  const o = await makeOwner(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const res = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, return_url: 'https://shop.example/done' });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), ['account_id', 'checkout_configuration_id', 'client_secret', 'created_at', 'id',
    'last_setup_error', 'member_id', 'next_action', 'payment_instrument', 'payment_method_id', 'payment_method_type', 'return_url',
    'status', 'updated_at', 'user']);
  assert.match(res.body.id, /^seti_/);
  assert.is(res.body.status, 'processing');
  assert.is(res.body.account_id, o.accountId);
  assert.is(res.body.payment_method_id, null);
  assert.is(res.body.member_id, null);
  assert.is(res.body.user, null);
  assert.is(res.body.last_setup_error, null);
  assert.is(res.body.next_action, null);
  assert.is(res.body.payment_method_type, 'card');
  assert.is(res.body.return_url, 'https://shop.example/done');
  assert.equal(res.body.payment_instrument, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  assert.ok(res.body.client_secret.startsWith(`${res.body.id}_secret_`));
  const job = await app.db('graphile_worker.jobs').where({ key: `save_setup_intent:${res.body.id}` }).first();
  assert.ok(job, 'save_setup_intent queued');
  assert.ok((await app.db('confirmation_tokens').where({ id: ctok }).first()).used_at, 'the token is spent');
});

t('exactly one of confirmation_token and payment_method_id (400 naming confirmation_token)', async () => {
  const o = await makeOwner(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const payt = await makePaymentMethod(app, o.accountId);
  const made = (await app.db('setup_intents').where({ account_id: o.accountId })).length; // the one that saved payt
  for (const body of [{ account_id: o.accountId }, { account_id: o.accountId, confirmation_token: ctok, payment_method_id: payt }]) {
    const res = await create(o.key, body);
    assert.is(res.status, 400);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'confirmation_token');
  }
  assert.is((await app.db('setup_intents').where({ account_id: o.accountId })).length, made);
});

t('a confirmation token of another account, or unknown, is 404; a used or expired one is 400', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  for (const token of [await makeConfirmationToken(app, b.accountId), 'ctok_missing']) {
    const res = await create(a.key, { account_id: a.accountId, confirmation_token: token });
    assert.is(res.status, 404);
    assert.is(res.body.error.type, 'not_found');
    assert.is(res.body.error.param, 'confirmation_token');
  }
  // Expired: a token lives an hour; its account is then put on a sandbox clock standing two hours later.
  const c = await makeOwner(app.db);
  const stale = await makeConfirmationToken(app, c.accountId);
  const clock = await app.request('POST', '/sandbox/clocks', {
    token: c.key, version: headVersion(), body: { account_id: c.accountId, frozen_time: new Date(Date.now() + 2 * 3_600_000).toISOString() },
  });
  assert.is(clock.status, 201, JSON.stringify(clock.body));
  const used = await makeConfirmationToken(app, a.accountId, 'succeeds', { used: true });
  for (const [owner, token, what] of [[a, used, 'used'], [c, stale, 'expired']] as const) {
    const res = await create(owner.key, { account_id: owner.accountId, confirmation_token: token });
    assert.is(res.status, 400, what);
    assert.is(res.body.error.param, 'confirmation_token');
    assert.match(res.body.error.message, what);
  }
  const ok = await makeConfirmationToken(app, a.accountId);
  assert.is((await create(a.key, { account_id: a.accountId, confirmation_token: ok })).status, 201);
  const reuse = await create(a.key, { account_id: a.accountId, confirmation_token: ok });
  assert.is(reuse.status, 400, 'single use');
});

t('the buyer: member_id, user_id (who joins as a member), or the saved method\'s member; bad ones are 404', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const byMember = await create(o.key, { account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId), member_id: m.memberId });
  assert.is(byMember.status, 201);
  assert.is(byMember.body.member_id, m.memberId);
  assert.equal(byMember.body.user, { id: buyer.id, username: buyer.user.username, name: buyer.user.name });

  const newcomer = await makeUser(app.db);
  const byUser = await create(o.key, { account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId), user_id: newcomer.id });
  assert.is(byUser.status, 201);
  const member = await app.db('members').where({ account_id: o.accountId, user_id: newcomer.id }).first();
  assert.is(byUser.body.member_id, member.id);
  assert.is(member.status, 'joined');

  const payt = await makePaymentMethod(app, o.accountId, { memberId: m.memberId, userId: buyer.id });
  const byMethod = await create(o.key, { account_id: o.accountId, payment_method_id: payt });
  assert.is(byMethod.status, 201);
  assert.is(byMethod.body.member_id, m.memberId);
  assert.is(byMethod.body.payment_method_id, payt);
  assert.equal(byMethod.body.payment_instrument, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }, 'the saved card');

  const ctok = await makeConfirmationToken(app, o.accountId);
  const foreignMember = (await makeMembership(app, other.accountId, buyer.id)).memberId;
  for (const [body, param] of [
    [{ member_id: foreignMember }, 'member_id'], [{ user_id: 'user_missing' }, 'user_id'],
    [{ checkout_configuration_id: 'chcfg_missing' }, 'checkout_configuration_id'],
  ] as const) {
    const res = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, ...body });
    assert.is(res.status, 404, param);
    assert.is(res.body.error.param, param);
  }
  const both = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, member_id: m.memberId, user_id: buyer.id });
  assert.is(both.status, 400);
  assert.is(both.body.error.param, 'user_id');
  const foreignMethod = await create(o.key, { account_id: o.accountId, payment_method_id: await makePaymentMethod(app, other.accountId) });
  assert.is(foreignMethod.status, 404);
  assert.is(foreignMethod.body.error.param, 'payment_method_id');
});

t('needs payment:charge on the account (403); an invisible account is 404; bad input 400', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const denied = await create(viewer.secret, { account_id: o.accountId, confirmation_token: ctok });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const hidden = await create(other.key, { account_id: o.accountId, confirmation_token: ctok });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const missing = await create(o.key, { confirmation_token: ctok });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'account_id');
  const badUrl = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, return_url: 'not a url' });
  assert.is(badUrl.status, 400);
  assert.is(badUrl.body.error.param, 'return_url');
  const unknown = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, amount: 5 });
  assert.is(unknown.status, 400);
  assert.is((await call('POST', '/setup_intents', { body: { account_id: o.accountId } })).status, 401);
});

t('Idempotency-Key: a retry replays the same setup intent; another body with the key is 400', async () => {
  const o = await makeOwner(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const body = { account_id: o.accountId, confirmation_token: ctok };
  const first = await create(o.key, body, { idempotencyKey: 'seti-key-1' });
  const again = await create(o.key, body, { idempotencyKey: 'seti-key-1' });
  assert.is(first.status, 201);
  assert.is(again.status, 201);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body, first.body);
  assert.is((await app.db('setup_intents').where({ account_id: o.accountId })).length, 1);
  const different = await create(o.key, { ...body, return_url: 'https://x.example' }, { idempotencyKey: 'seti-key-1' });
  assert.is(different.status, 400);
  assert.is(different.body.error.type, 'idempotency_error');
});

const OLD = '2026-08-25';

t(`at ${OLD} the method is saved during the request: succeeded, payment method on file, no job`, async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const res = await create(o.key, { account_id: o.accountId, confirmation_token: ctok, user_id: buyer.id }, { version: OLD });
  assert.is(res.status, 201);
  assert.is(res.headers.get('api-version-date'), OLD);
  assert.is(res.body.status, 'succeeded');
  assert.match(res.body.payment_method_id, /^payt_/);
  assert.is(res.body.last_setup_error, null);
  const method = await app.db('payment_methods').where({ id: res.body.payment_method_id }).first();
  assert.is(method.member_id, res.body.member_id);
  assert.is(method.user_id, buyer.id);
  assert.is(method.last4, '4242');
  assert.is(await app.db('graphile_worker.jobs').where({ key: `save_setup_intent:${res.body.id}` }).first(), undefined);
  const event = await app.db('events').where({ type: 'setup_intent.succeeded' }).whereRaw("data->>'id' = ?", [res.body.id]).first();
  assert.is(event.data.status, 'succeeded');
  assert.is(event.data.client_secret, null, 'events never carry the secret');
});

t(`at ${OLD} refused and 3D Secure cards show their outcome in the response`, async () => {
  const o = await makeOwner(app.db);
  const outcome = async (behaviour: Behaviour) => (await create(o.key, {
    account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId, behaviour), return_url: 'https://shop.example/back',
  }, { version: OLD })).body;
  const declined = await outcome('declined');
  assert.is(declined.status, 'canceled');
  assert.equal(declined.last_setup_error, { code: 'card_declined', message: 'The card was declined' });
  assert.is(declined.payment_method_id, null);
  const poor = await outcome('insufficient_funds');
  assert.is(poor.status, 'canceled');
  assert.is(poor.last_setup_error.code, 'insufficient_funds');
  const challenged = await outcome('requires_3ds');
  assert.is(challenged.status, 'requires_action');
  assert.is(challenged.next_action.type, 'redirect_to_url');
  assert.match(challenged.next_action.redirect_url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/authenticate\/[A-Za-z0-9]{32}$/);
  assert.is(challenged.next_action.return_url, 'https://shop.example/back');
  assert.is(challenged.last_setup_error, null);
  for (const [type, id] of [['setup_intent.canceled', declined.id], ['setup_intent.requires_action', challenged.id]]) {
    assert.ok(await app.db('events').where({ type }).whereRaw("data->>'id' = ?", [id]).first(), type);
  }
});

t('since 2026-08-28 the same request answers processing', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.key, { account_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId) }, { version: '2026-08-28' });
  assert.is(res.status, 201);
  assert.is(res.body.status, 'processing');
  assert.is(res.body.payment_method_id, null);
});

t.run();
