// The hosted checkout page in headless Chromium, as a buyer uses it: the page's script makes the confirmation token
// with the client id, the purchase is the API's (payment, membership, events), 3-D Secure happens on the sandbox's
// page and comes back, a declined card says so, and a setup-mode link saves a card without charging.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'puppeteer-core';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { skip } from '../helpers/skip.js';
import { expectStatus } from '../catalogue/support.js';
import { CARDS, makeShop, servePublicLinks } from './checkout-fixtures.js';
import { launch, noBrowser, payWith, waitForUrl, watchedPage } from './browser.js';

const t = suite('checkout page in Chromium');
let app: TestApp;
let browser: Browser | null = null;
let restoreLinks: () => void = () => {};
t.before(async () => {
  // The worker collects payments and saves cards in the background, as in production.
  app = await startTestApp({ worker: true });
  restoreLinks = servePublicLinks(app);
  if (!noBrowser()) browser = await launch();
});
t.after(async () => {
  await browser?.close();
  restoreLinks();
  await app.close();
});

const eventsOf = async (accountId: string, type: string) => app.db('events').where({ account_id: accountId, type });

t('a card purchase with a promo code ends on the redirect URL with a succeeded payment, its membership and event', async () => {
  const why = noBrowser();
  if (why) return skip(why);
  const origin = app.server.url;
  const s = await makeShop(app, {}, { redirect_url: `${origin}/health?shop=clay` });
  expectStatus(await s.call('POST', '/promo_codes', { account_id: s.accountId, code: 'CLAY20', amount_off: 200, currency: 'usd' }), 201);
  const { page, problems } = await watchedPage(browser!, origin);
  await page.goto(s.checkout.purchase_url);
  assert.is(await page.$eval('#seller', (e) => e.textContent), 'Sold by Clay Studio');
  await page.type('#promo-code', 'clay20');
  await page.type('#country', 'de');
  await Promise.all([page.waitForNavigation(), page.click('#apply')]);
  // 10.00 less 2.00, plus 19% of 8.00.
  assert.match(await page.$eval('#price-total', (e) => e.textContent!), '9.52 USD');
  await payWith(page, 'ada@example.com', CARDS.succeeds);
  const landed = await waitForUrl(page, (u) => u.pathname === '/health');
  assert.is(landed.searchParams.get('shop'), 'clay');
  const paymentId = landed.searchParams.get('payment_id')!;
  const payment = expectStatus(await s.call('GET', `/payments/${paymentId}`), 200);
  assert.equal([payment.status, payment.total.amount, payment.discount_amount?.amount ?? 200, payment.plan?.id ?? s.plan.id],
    ['succeeded', 952, 200, s.plan.id]);
  const memberships = expectStatus(await s.call('GET', `/memberships?account_id=${s.accountId}&user_id=${payment.user.id}`), 200);
  assert.is(memberships.data.length, 1);
  assert.is(memberships.data[0].status, 'active');
  const succeeded = await eventsOf(s.accountId, 'payment.succeeded');
  assert.equal(succeeded.map((e) => e.data.id), [paymentId]);
  assert.equal(problems, []);
  await page.close();
});

t('a card that needs 3-D Secure goes through the sandbox page and comes back to a success page', async () => {
  const why = noBrowser();
  if (why) return skip(why);
  const s = await makeShop(app);
  const { page, problems } = await watchedPage(browser!, app.server.url);
  await page.goto(s.plan.purchase_url);
  await payWith(page, 'grace@example.com', CARDS.threeDSecure);
  assert.match(new URL(page.url()).pathname, /^\/sandbox\/authenticate\//);
  assert.match(await page.$eval('body', (e) => e.textContent!), 'Clay Studio asks you to confirm a payment of 10.00 USD');
  await Promise.all([page.waitForNavigation(), page.click('button[value=succeed]')]);
  await page.waitForSelector('#payment-id', { timeout: 30_000 });
  assert.match(await page.$eval('h1', (e) => e.textContent!), 'Payment complete');
  const paymentId = await page.$eval('#payment-id', (e) => e.textContent!);
  const payment = expectStatus(await s.call('GET', `/payments/${paymentId}`), 200);
  assert.is(payment.status, 'succeeded');
  // The step's outcome came back on the return_url, which is the result page.
  assert.is(new URL(page.url()).searchParams.get('authentication'), 'succeeded');
  assert.equal(problems, []);
  await page.close();
});

t('a declined card says so and offers to try again; a card the API refuses never leaves the page', async () => {
  const why = noBrowser();
  if (why) return skip(why);
  const s = await makeShop(app);
  const { page } = await watchedPage(browser!, app.server.url);
  await page.goto(s.checkout.purchase_url);
  await page.type('#email', 'linus@example.com');
  await page.type('#card-number', '4242424242424241');
  await page.type('#card-exp-month', '12');
  await page.type('#card-exp-year', '2030');
  await page.type('#card-cvc', '123');
  await page.click('#pay-button');
  await page.waitForFunction(() => document.getElementById('error')!.textContent !== '', { timeout: 10_000 });
  assert.match(await page.$eval('#error', (e) => e.textContent!), 'Luhn');
  assert.is(new URL(page.url()).pathname, `/checkout/c/${s.checkout.id}`);
  await page.goto(s.checkout.purchase_url);
  await payWith(page, 'linus@example.com', CARDS.declined);
  await page.waitForSelector('#retry', { timeout: 30_000 });
  assert.match(await page.$eval('#error', (e) => e.textContent!), /declined/i);
  assert.is(await page.$eval('#retry', (e) => (e as HTMLAnchorElement).href), s.checkout.purchase_url);
  const payments = await app.db('payments').where({ account_id: s.accountId });
  assert.equal(payments.map((p) => [p.status, p.failure_code]), [['failed', 'card_declined']]);
  assert.is((await app.db('memberships').where({ account_id: s.accountId })).length, 0);
  assert.is((await eventsOf(s.accountId, 'payment.failed')).length, 1);
  await page.close();
});

t('a setup-mode link saves the card for the buyer and charges nothing', async () => {
  const why = noBrowser();
  if (why) return skip(why);
  const s = await makeShop(app);
  const setup = expectStatus(await s.call('POST', '/checkout_configurations', { account_id: s.accountId, mode: 'setup' }), 201);
  const { page, problems } = await watchedPage(browser!, app.server.url);
  await page.goto(setup.purchase_url);
  assert.match(await page.$eval('#product', (e) => e.textContent!), 'Nothing is charged now');
  await payWith(page, 'margaret@example.com', CARDS.succeeds);
  await page.waitForSelector('#setup-intent-id', { timeout: 30_000 });
  assert.match(await page.$eval('h1', (e) => e.textContent!), 'Card saved');
  const id = await page.$eval('#setup-intent-id', (e) => e.textContent!);
  const intent = expectStatus(await s.call('GET', `/setup_intents/${id}`), 200);
  assert.equal([intent.status, intent.checkout_configuration_id, intent.payment_instrument.last4], ['succeeded', setup.id, '4242']);
  assert.match(intent.payment_method_id, /^payt_/);
  assert.is((await app.db('payments').where({ account_id: s.accountId })).length, 0);
  assert.equal(problems, []);
  await page.close();
});

t.run();
