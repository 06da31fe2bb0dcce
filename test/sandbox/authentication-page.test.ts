// The sandbox's 3-D Secure page, as a buyer's browser uses it: next_action's URL shows the page without credentials,
// a form post finishes the step (as confirm_action does) and sends the browser to return_url with the outcome.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';
import { makeConfirmationToken } from '../memberships/fixtures.js';
import { CARDS, collect, get, jobsOf, makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';

const t = suite('sandbox 3-D Secure page');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** next_action names the public origin; the test server serves the same path. */
const local = (url: string) => `${app.server.url}${new URL(url).pathname}`;
const open = (url: string) => fetch(local(url));
const submit = (url: string, form: string, contentType = 'application/x-www-form-urlencoded') =>
  fetch(local(url), { method: 'POST', headers: { 'content-type': contentType }, body: form, redirect: 'manual' });

async function challengedSetup(returnUrl?: string) {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const created = await app.request('POST', '/setup_intents', {
    token: o.key, version: headVersion(),
    body: { account_id: o.accountId, user_id: buyer.id, confirmation_token: await makeConfirmationToken(app, o.accountId, 'requires_3ds'),
      ...(returnUrl ? { return_url: returnUrl } : {}) },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  await saveSetupIntent(app.db, created.body.id);
  const si = (await app.request('GET', `/setup_intents/${created.body.id}`, { token: o.key, version: headVersion() })).body;
  assert.is(si.status, 'requires_action');
  return { o, si, url: si.next_action.redirect_url as string };
}

const setupIntent = (o: { key: string }, id: string) => app.request('GET', `/setup_intents/${id}`, { token: o.key, version: headVersion() });

t('a setup intent: the page names the seller and card; succeed saves the card and returns the buyer to return_url', async () => {
  const { o, si, url } = await challengedSetup('https://shop.example/back?step=2');
  const title = (await app.db('accounts').where({ id: o.accountId }).first('title')).title;
  const shown = await open(url);
  assert.is(shown.status, 200);
  assert.match(shown.headers.get('content-type') ?? '', 'text/html');
  const html = await shown.text();
  assert.ok(html.includes(title), 'names the seller');
  assert.ok(html.includes('ending 3155'), 'names the card (the 3D Secure test card)');
  assert.ok(html.includes('name="outcome" value="succeed"') && html.includes('name="outcome" value="fail"'));

  const done = await submit(url, 'outcome=succeed');
  assert.is(done.status, 303);
  const back = new URL(done.headers.get('location')!);
  assert.is(back.origin + back.pathname, 'https://shop.example/back');
  assert.is(back.searchParams.get('step'), '2', 'the return_url keeps its own query');
  assert.is(back.searchParams.get('setup_intent_id'), si.id);
  assert.is(back.searchParams.get('authentication'), 'succeeded');

  const after = (await setupIntent(o, si.id)).body;
  assert.is(after.status, 'succeeded');
  assert.match(after.payment_method_id, /^payt_/);
  assert.is(after.next_action, null);
  assert.ok(await app.db('events').where({ type: 'setup_intent.succeeded' }).whereRaw("data->>'id' = ?", [si.id]).first());
  // Single use: the link is spent.
  assert.is((await open(url)).status, 404);
  assert.is((await submit(url, 'outcome=fail')).status, 404);
  assert.is((await setupIntent(o, si.id)).body.status, 'succeeded');
});

t('a setup intent: fail cancels it with authentication_failed; without return_url the page shows the outcome', async () => {
  const { o, si, url } = await challengedSetup();
  const done = await submit(url, 'outcome=fail');
  assert.is(done.status, 200);
  assert.ok((await done.text()).includes('Authentication failed'));
  const after = (await setupIntent(o, si.id)).body;
  assert.is(after.status, 'canceled');
  assert.is(after.last_setup_error.code, 'authentication_failed');
  assert.is(after.payment_method_id, null);
  assert.ok(await app.db('events').where({ type: 'setup_intent.canceled' }).whereRaw("data->>'id' = ?", [si.id]).first());
});

t('a bad form or an unknown link changes nothing', async () => {
  const { o, si, url } = await challengedSetup();
  for (const [form, type] of [['outcome=maybe', undefined], ['', undefined], ['{"outcome":"succeed"}', 'application/json']] as const) {
    const res = await submit(url, form, type);
    assert.is(res.status, 400, form);
  }
  assert.is((await setupIntent(o, si.id)).body.status, 'requires_action');
  assert.is((await open(`http://x/sandbox/authenticate/${'a'.repeat(32)}`)).status, 404);
  assert.is((await open('http://x/sandbox/authenticate/short')).status, 404);
  // confirm_action through the API spends the link too.
  const confirmed = await app.request('POST', `/setup_intents/${si.id}/confirm_action`, { token: o.key, version: headVersion(), body: { outcome: 'succeed' } });
  assert.is(confirmed.status, 200);
  assert.is((await open(url)).status, 404);
});

t('a payment: the page shows the amount; succeed queues the collection and returns the buyer to return_url', async () => {
  const s = await makeSeller(app.db);
  const { id, created } = await pay(app, s, { amount: 2500, currency: 'usd', return_url: 'https://shop.example/paid' },
    { card: CARDS.threeDSecure, collect: false });
  assert.is(created.status, 'requires_action');
  const url = created.next_action.redirect_to_url.url;
  const html = await (await open(url)).text();
  assert.ok(html.includes('<strong>25.00 USD</strong>'), 'shows the total');
  assert.ok(html.includes('ending 3155'));
  assert.is((await jobsOf(app, 'collect_payment', id)).length, 0);

  const done = await submit(url, 'outcome=succeed');
  assert.is(done.status, 303);
  const back = new URL(done.headers.get('location')!);
  assert.is(back.searchParams.get('payment_id'), id);
  assert.is(back.searchParams.get('authentication'), 'succeeded');
  const after = await get(app, s.key, id);
  assert.is(after.status, 'processing');
  assert.is(after.next_action, null);
  assert.is((await jobsOf(app, 'collect_payment', id)).length, 1, 'the collection is queued with the change');
  await collect(app, id);
  assert.is((await get(app, s.key, id)).status, 'succeeded');
  assert.is((await open(url)).status, 404, 'spent');
});

t('a payment: fail fails it (payment.failed) and gives back its stock unit', async () => {
  const s = await makeSeller(app.db);
  const variant = await makeVariant(app, s.accountId, { price: 5000, stock: 2 });
  const { id, created } = await pay(app, s, { plan_id: variant.id, return_url: 'https://shop.example/paid' },
    { card: CARDS.threeDSecure, collect: false });
  assert.is(created.status, 'requires_action');
  assert.is((await app.db('plans').where({ id: variant.id }).first('stock')).stock, 1);
  const done = await submit(created.next_action.redirect_to_url.url, 'outcome=fail');
  assert.is(done.status, 303);
  assert.is(new URL(done.headers.get('location')!).searchParams.get('authentication'), 'failed');
  const after = await get(app, s.key, id);
  assert.is(after.status, 'failed');
  assert.is(after.failure_code, 'authentication_failed');
  assert.is((await app.db('plans').where({ id: variant.id }).first('stock')).stock, 2);
  assert.ok(await app.db('events').where({ type: 'payment.failed' }).whereRaw("data->>'id' = ?", [id]).first());
});

t('voiding a payment that waits on its buyer spends the link', async () => {
  const s = await makeSeller(app.db);
  const { id, created } = await pay(app, s, { amount: 2500, currency: 'usd' }, { card: CARDS.threeDSecure, collect: false });
  const voided = await app.request('POST', `/payments/${id}/void`, { token: s.key, version: headVersion() });
  assert.is(voided.status, 200, JSON.stringify(voided.body));
  assert.is((await open(created.next_action.redirect_to_url.url)).status, 404);
});

t.run();
