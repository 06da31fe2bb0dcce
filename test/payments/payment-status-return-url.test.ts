// GET /payments/{id}/status, PATCH /payments/{id} (return_url, only while requires_action) and
// GET /setup_intents/{id}/status over HTTP, at the latest version and at an older pin (2026-07-20).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';
import { makeConfirmationToken } from '../memberships/fixtures.js';
import { CARDS, collect, makeSeller, pay, VERSION } from './payment-fixtures.js';

const OLDER = '2026-07-20';
const t = suite('payment status, return_url, setup intent status');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const status = (token: string, id: string, version = VERSION) => app.request('GET', `/payments/${id}/status`, { token, version });
const patch = (token: string, id: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('PATCH', `/payments/${id}`, { token, version, body });

t('a payment\'s status follows it: requires_action with next_action, processing, succeeded; declined with its failure', async () => {
  const s = await makeSeller(app.db);
  const p = await pay(app, s, { amount: 100, currency: 'usd', return_url: 'https://shop.example/a' }, { card: CARDS.challenge, collect: false });
  const waiting = await status(s.key, p.id);
  assert.is(waiting.status, 200, JSON.stringify(waiting.body));
  assert.equal(Object.keys(waiting.body).sort(), ['failure_code', 'failure_message', 'id', 'next_action', 'status', 'updated_at']);
  assert.equal([waiting.body.id, waiting.body.status, waiting.body.next_action.redirect_to_url.return_url, waiting.body.failure_code],
    [p.id, 'requires_action', 'https://shop.example/a', null]);
  await app.request('POST', `/payments/${p.id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'succeed' } });
  assert.equal([(await status(s.key, p.id)).body.status, (await status(s.key, p.id)).body.next_action], ['processing', null]);
  await collect(app, p.id);
  const done = await status(s.key, p.id);
  const full = await app.request('GET', `/payments/${p.id}`, { token: s.key, version: VERSION });
  assert.equal([done.body.status, done.body.updated_at], ['succeeded', full.body.updated_at]);
  const declined = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.declined });
  assert.equal([(await status(s.key, declined.id)).body.status, (await status(s.key, declined.id)).body.failure_code], ['failed', 'card_declined']);
  // At 2026-07-20 the status is in that version's words, the finer one in substatus, as on the payment.
  const older = await status(s.key, declined.id, OLDER);
  const olderPayment = await app.request('GET', `/payments/${declined.id}`, { token: s.key, version: OLDER });
  assert.equal([older.body.status, older.body.substatus], ['open', 'failed']);
  assert.equal([older.body.status, older.body.substatus], [olderPayment.body.status, olderPayment.body.substatus]);
  assert.equal([(await status(s.key, p.id, OLDER)).body.status, (await status(s.key, p.id, OLDER)).body.substatus], ['paid', 'succeeded']);
});

t('payment status: another account is a 404, no payment scope a 403, the buyer\'s own token a 403', async () => {
  const s = await makeSeller(app.db);
  const buyer = await makeUser(app.db);
  const p = await pay(app, s, { amount: 100, currency: 'usd' }, { buyerId: buyer.id });
  const other = await makeSeller(app.db);
  const hidden = await status(other.key, p.id);
  assert.equal([hidden.status, hidden.body.error.type], [404, 'not_found']);
  assert.is((await status(s.key, 'pay_doesnotexist')).status, 404);
  const narrow = (await makeKey(app.db, { accountId: s.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] })).secret;
  assert.is((await status(narrow, p.id)).status, 403);
  assert.is((await status(buyer.token, p.id)).status, 403);
});

t('return_url changes while requires_action: next_action and the sandbox page\'s redirect use the new one', async () => {
  const s = await makeSeller(app.db);
  const p = await pay(app, s, { amount: 100, currency: 'usd', return_url: 'https://shop.example/old' }, { card: CARDS.challenge, collect: false });
  const res = await patch(s.key, p.id, { return_url: 'https://shop.example/new?x=1' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.id, res.body.status, res.body.next_action.redirect_to_url.return_url], [p.id, 'requires_action', 'https://shop.example/new?x=1']);
  assert.is((await status(s.key, p.id)).body.next_action.redirect_to_url.return_url, 'https://shop.example/new?x=1');
  // The buyer finishes the step on the sandbox's page and is sent to the new return_url.
  const page = new URL(res.body.next_action.redirect_to_url.url);
  const done = await fetch(`${app.server.url}${page.pathname}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=succeed', redirect: 'manual',
  });
  assert.is(done.status, 303);
  const back = new URL(done.headers.get('location')!);
  assert.equal([back.origin + back.pathname, back.searchParams.get('x'), back.searchParams.get('payment_id')], ['https://shop.example/new', '1', p.id]);
  // Now processing: the buyer can no longer act on it, so the change is refused and nothing is written.
  const late = await patch(s.key, p.id, { return_url: 'https://shop.example/late' });
  assert.equal([late.status, late.body.error.type, late.body.error.param], [400, 'invalid_state', 'status']);
  assert.is((await app.db('payments').where({ id: p.id }).first('return_url')).return_url, 'https://shop.example/new?x=1');
});

t('return_url: illegal in every other status (400 invalid_state), a bad URL 400 naming return_url, 404/403 as on the payment; older pin', async () => {
  const s = await makeSeller(app.db);
  const succeeded = await pay(app, s, { amount: 100, currency: 'usd' });
  const processing = await pay(app, s, { amount: 100, currency: 'usd' }, { collect: false });
  const failed = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.declined });
  for (const id of [succeeded.id, processing.id, failed.id]) {
    const res = await patch(s.key, id, { return_url: 'https://shop.example/x' });
    assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_state', 'status'], id);
  }
  const waiting = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.challenge, collect: false });
  const bad = await patch(s.key, waiting.id, { return_url: 'not a url' });
  assert.equal([bad.status, bad.body.error.param], [400, 'return_url']);
  const missing = await patch(s.key, waiting.id, {});
  assert.equal([missing.status, missing.body.error.param], [400, 'return_url']);
  const unknown = await patch(s.key, waiting.id, { return_url: 'https://shop.example/x', amount: 5 });
  assert.equal([unknown.status, unknown.body.error.param], [400, 'amount']);
  const other = await makeSeller(app.db);
  assert.is((await patch(other.key, waiting.id, { return_url: 'https://shop.example/x' })).status, 404);
  const reader = (await makeKey(app.db, { accountId: s.accountId, role: 'viewer' })).secret;
  const noCharge = await patch(reader, waiting.id, { return_url: 'https://shop.example/x' });
  assert.equal([noCharge.status, noCharge.body.error.type], [403, 'permission_denied']);
  const older = await patch(s.key, waiting.id, { return_url: 'https://shop.example/older' }, OLDER);
  assert.equal([older.status, older.body.status, older.body.substatus, older.body.company_id, older.body.next_action.redirect_to_url.return_url],
    [200, 'open', 'requires_action', s.accountId, 'https://shop.example/older']);
});

t('a setup intent\'s status: processing, requires_action with next_action, canceled with last_setup_error; older pin; 404/403', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const create = async (behaviour: 'requires_3ds' | 'declined') => (await app.request('POST', '/setup_intents', {
    token: o.key, version: VERSION,
    body: { account_id: o.accountId, user_id: buyer.id, return_url: 'https://shop.example/s', confirmation_token: await makeConfirmationToken(app, o.accountId, behaviour) },
  })).body;
  const si = await create('requires_3ds');
  const get = (id: string, token = o.key, version = VERSION) => app.request('GET', `/setup_intents/${id}/status`, { token, version });
  const fresh = await get(si.id);
  assert.is(fresh.status, 200, JSON.stringify(fresh.body));
  assert.equal(fresh.body, { id: si.id, status: 'processing', next_action: null, last_setup_error: null, updated_at: si.updated_at });
  await saveSetupIntent(app.db, si.id);
  const waiting = await get(si.id);
  assert.equal([waiting.body.status, waiting.body.next_action.return_url], ['requires_action', 'https://shop.example/s']);
  assert.match(waiting.body.next_action.redirect_url, /\/sandbox\/authenticate\//);
  const declined = await create('declined');
  await saveSetupIntent(app.db, declined.id);
  const canceled = await get(declined.id);
  assert.equal([canceled.body.status, canceled.body.last_setup_error.code], ['canceled', 'card_declined']);
  const older = await get(declined.id, o.key, OLDER);
  assert.equal([older.status, older.body.status, older.body.last_setup_error, typeof older.body.error_message],
    [200, 'canceled', undefined, 'string']);
  assert.is(older.body.error_message, canceled.body.last_setup_error.message);
  assert.is((await get(si.id, buyer.token)).status, 200, "the buyer's own token reads it, as GET /setup_intents/{id}");
  const other = await makeOwner(app.db);
  assert.equal([(await get(si.id, other.key)).status, (await get('seti_nope', o.key)).status], [404, 404]);
  const narrow = (await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] })).secret;
  assert.is((await get(si.id, narrow)).status, 403);
});

t.run();
