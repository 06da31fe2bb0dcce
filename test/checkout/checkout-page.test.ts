// The hosted checkout page over plain HTTP (no browser): what it shows for each link form, how it re-prices with a
// promo code and a country, what it refuses, and a purchase posted as the page's script posts it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { collectPayment } from '../../handlers/payments/collection.js';
import { expectStatus } from '../catalogue/support.js';
import { CARDS, makeShop, pathOf, servePublicLinks, VERSION } from './checkout-fixtures.js';

const t = suite('checkout page over HTTP');
let app: TestApp;
let restoreLinks: () => void;
t.before(async () => { app = await startTestApp(); restoreLinks = servePublicLinks(app); });
t.after(async () => { restoreLinks(); await app.close(); });

async function get(path: string, cookie?: string) {
  const res = await fetch(`${app.server.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', location: res.headers.get('location'), text: await res.text() };
}

async function post(path: string, form: Record<string, string>) {
  const res = await fetch(`${app.server.url}${path}`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(),
  });
  // The result page's cookie, as the browser would send it back (name=value only).
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { status: res.status, location: res.headers.get('location'), cookie, text: await res.text() };
}

async function token(clientId: string, number = CARDS.succeeds): Promise<string> {
  const res = await app.request('POST', '/confirmation_tokens', { token: clientId, version: VERSION, body: { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' } } });
  return expectStatus(res, 201).id;
}

t('each link form shows the seller, the product and the price, with the client id for the card form', async () => {
  const s = await makeShop(app);
  const quick = expectStatus(await s.call('POST', '/variants', {
    account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', initial_price: 2500, visibility: 'quick_link', short_link: `clay-${Date.now()}`,
  }), 201);
  assert.match(quick.purchase_url, `${app.server.url}/checkout/q/`);
  for (const [url, price] of [[s.plan.purchase_url, '10.00 USD'], [s.checkout.purchase_url, '10.00 USD'], [quick.purchase_url, '25.00 USD']]) {
    const res = await get(pathOf(url));
    assert.is(res.status, 200, url);
    assert.match(res.type, 'text/html');
    assert.match(res.text, 'Sold by <strong>Clay Studio</strong>');
    assert.match(res.text, 'Pottery course');
    assert.match(res.text, new RegExp(`id="price-total"><td>Total due today</td><td class="amount">${price}`));
    assert.match(res.text, `data-client="${s.clientId}"`);
    assert.match(res.text, '/api/v1/confirmation_tokens');
  }
});

t('a promo code and a country re-price the page as POST /payments prices them; a bad one is shown and dropped', async () => {
  const s = await makeShop(app);
  expectStatus(await s.call('POST', '/promo_codes', { account_id: s.accountId, code: 'SPRING10', percent_off: 10 }), 201);
  const res = await get(`${pathOf(s.checkout.purchase_url)}?promo_code=spring10&country=de`);
  assert.is(res.status, 200);
  // 10.00 less 10% is 9.00; German VAT (19%) on 9.00 is 1.71.
  assert.match(res.text, /id="price-discount"><td>Promo code SPRING10<\/td><td class="amount">&minus;1.00 USD/);
  assert.match(res.text, /id="price-tax"><td>Tax \(DE\)<\/td><td class="amount">1.71 USD/);
  assert.match(res.text, /id="price-total"><td>Total due today<\/td><td class="amount">10.71 USD/);
  assert.match(res.text, '<input type="hidden" name="promo_code" value="spring10">');
  const bad = await get(`${pathOf(s.checkout.purchase_url)}?promo_code=NOPE`);
  assert.is(bad.status, 404);
  assert.match(bad.text, /id="error" class="error" role="alert">[^<]*promo code[^<]*NOPE/);
  assert.match(bad.text, /id="price-total"><td>Total due today<\/td><td class="amount">10.00 USD/);
  assert.not.match(bad.text, 'name="promo_code" value="NOPE"', 'the refused code is not posted with the card');
  const country = await get(`${pathOf(s.checkout.purchase_url)}?country=Germany`);
  assert.is(country.status, 400);
  assert.match(country.text, 'two-letter');
});

t('unknown links are a 404 page; an archived product or variant a 410; nothing to sell shows no form', async () => {
  for (const path of ['/checkout/p/plan_nope', '/checkout/q/no-such-link', '/checkout/c/chcfg_nope']) {
    const res = await get(path);
    assert.is(res.status, 404, path);
    assert.match(res.text, 'This checkout link does not exist');
    assert.not.match(res.text, 'id="pay"');
  }
  const s = await makeShop(app);
  expectStatus(await s.call('PATCH', `/products/${s.product.id}`, { visibility: 'archived' }), 200);
  const archived = await get(pathOf(s.plan.purchase_url));
  assert.is(archived.status, 410);
  assert.match(archived.text, 'Pottery course is archived: it is no longer sold.');
  assert.is((await post(pathOf(s.checkout.purchase_url), { email: 'a@example.com', confirmation_token: await token(s.clientId) })).status, 410);
  const variantArchived = await makeShop(app);
  expectStatus(await variantArchived.call('PATCH', `/variants/${variantArchived.plan.id}`, { visibility: 'archived' }), 200);
  const gone = await get(pathOf(variantArchived.checkout.purchase_url));
  assert.is(gone.status, 410);
  assert.match(gone.text, 'This price of Pottery course is archived');
  const deleted = await makeShop(app);
  expectStatus(await deleted.call('DELETE', `/checkout_configurations/${deleted.checkout.id}`), 200);
  assert.is((await get(pathOf(deleted.checkout.purchase_url))).status, 404);
});

t('a posted purchase runs POST /payments: refusals write nothing; a payment goes to the result page and succeeds', async () => {
  const s = await makeShop(app, {}, { redirect_url: 'https://shop.example/thanks?from=checkout' });
  const path = pathOf(s.checkout.purchase_url);
  const users = async () => Number((await app.db('users').count('* as n').first())!.n);
  const before = await users();
  const noToken = await post(path, { email: 'new.buyer@example.com', confirmation_token: '' });
  assert.is(noToken.status, 400);
  assert.match(noToken.text, 'confirmation token');
  const badEmail = await post(path, { email: 'not-an-address', confirmation_token: await token(s.clientId) });
  assert.is(badEmail.status, 400);
  assert.match(badEmail.text, 'e-mail address');
  const ctok = await token(s.clientId);
  const badPromo = await post(path, { email: 'new.buyer@example.com', confirmation_token: ctok, promo_code: 'NOPE' });
  assert.is(badPromo.status, 404);
  assert.is(await users(), before, 'no buyer was made by a refused purchase');
  assert.is((await app.db('confirmation_tokens').where({ id: ctok }).first()).used_at, null, 'the token stays unspent');
  assert.is((await app.db('payments').where({ account_id: s.accountId })).length, 0);

  const done = await post(path, { email: 'New.Buyer@example.com', confirmation_token: ctok, country: 'DE' });
  assert.is(done.status, 303, done.text);
  const result = `${done.location}`;
  const paymentId = new URL(result, app.server.url).searchParams.get('payment_id')!;
  assert.is(result, `/checkout/done?payment_id=${paymentId}`);
  // The result page is the buying browser's: a cookie (HttpOnly, on the result path) holds its secret; no URL does.
  assert.match(done.cookie, new RegExp(`^checkout_${paymentId}=[A-Za-z0-9]{32}$`));
  const payment = expectStatus(await s.call('GET', `/payments/${paymentId}`), 200);
  assert.equal([payment.status, payment.total.amount, payment.tax_amount.amount, payment.user.username.startsWith('new_buyer_')], ['processing', 1190, 190, true]);
  const stored = await app.db('payments').where({ id: paymentId }).first('return_url', 'checkout_configuration_id');
  assert.equal(stored, { return_url: `${app.server.url}/checkout/done`, checkout_configuration_id: s.checkout.id });
  assert.match((await get(result, done.cookie)).text, 'Processing your payment');
  await collectPayment(app.db, paymentId);
  const finished = await get(result, done.cookie);
  assert.is(finished.status, 303);
  const next = new URL(finished.location!);
  assert.equal([next.origin + next.pathname, next.searchParams.get('from'), next.searchParams.get('payment_id')], ['https://shop.example/thanks', 'checkout', paymentId]);
  // Without the cookie, or with another payment's, the result page shows nothing.
  assert.is((await get(result)).status, 404);
  const again = await post(path, { email: 'new.buyer@example.com', confirmation_token: await token(s.clientId) });
  const second = new URL(again.location!, app.server.url).searchParams.get('payment_id')!;
  assert.is((await get(result, again.cookie.replace(second, paymentId).replace(/=.*/, '=' + 'a'.repeat(32)))).status, 404);
  assert.is((await get(`/checkout/done?payment_id=${second}`, done.cookie)).status, 404);
  // The same buyer's e-mail is the same user.
  assert.is((await app.db('payments').where({ id: second }).first()).user_id, payment.user.id);
});

t('for an account on a sandbox clock the purchase is dated by the clock, as its API requests are', async () => {
  const s = await makeShop(app);
  const start = new Date(Math.ceil((Date.now() + 30 * 86_400_000) / 1000) * 1000).toISOString();
  expectStatus(await s.call('POST', '/sandbox/clocks', { account_id: s.accountId, frozen_time: start, name: 'checkout' }), 201);
  const done = await post(pathOf(s.plan.purchase_url), { email: 'clocked@example.com', confirmation_token: await token(s.clientId) });
  assert.is(done.status, 303, done.text);
  const paymentId = new URL(done.location!, app.server.url).searchParams.get('payment_id')!;
  assert.is(expectStatus(await s.call('GET', `/payments/${paymentId}`), 200).created_at, start);
});

t.run();
