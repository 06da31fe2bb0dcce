// Partner businesses over HTTP: affiliate_code on account creation refers the account; its settled USD payments
// earn the partner floor(platform fee * 30 / 100) through the ledger in the settlement's transaction.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { commissionOf } from '../../handlers/partners/accrue.js';
import { REFERRAL_WINDOW_DAYS } from '../../handlers/partners/refer.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { makeVariant, pay } from '../payments/payment-fixtures.js';
import { availableOf } from '../transfers/ledger-fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { referred as referredBy } from './partner-fixtures.js';

const t = suite('partners');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (token: string, path: string, version = headVersion()) => app.request('GET', path, { token, version });

const referred = () => referredBy(app, (username) => username.toUpperCase());

t('affiliate_code refers the account: the partner business, its terms, zero groups', async () => {
  const r = await referred();
  const res = await get(r.partner.token, `/partners/businesses/${r.businessId}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const b = res.body;
  assert.match(b.id, /^pbiz_/);
  assert.equal([b.account.id, b.account.title, b.status, b.my_partner_tier], [r.accountId, 'Referred shop', 'active', 'first']);
  // The referral window: a year of days from the referral's start.
  assert.is(Date.parse(b.referral_expires_at) - Date.parse(b.referral_started_at), REFERRAL_WINDOW_DAYS * 86_400_000);
  assert.equal(b.payout_percentages, { sales: 30, ad_spend: null, transfer: null, card_interchange: null });
  assert.equal(b.volume_usd, { attributed: '0.00', awaiting_settlement: '0.00', settled: '0.00' });
  assert.equal(b.earnings_usd, { completed: '0.00', pending: '0.00', total: '0.00' });
  assert.ok(b.referral_started_at);
  const bad = await app.request('POST', '/accounts', { token: r.partner.token, version: headVersion(), body: { affiliate_code: 'nobody_has_this' } });
  assert.equal([bad.status, bad.body.error.param], [400, 'affiliate_code']);
});

const pendingOf = async (userId: string) =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, userId), currency: 'usd', bucket: 'pending' }).first('amount'))?.amount ?? 0);

t('succeeded payments earn floor(platform fee * 30%) from the platform fee revenue into the partner wallet (pending until they settle); exact', async () => {
  const r = await referred();
  const a = await pay(app, r, { amount: 2_500, currency: 'usd' }); // platform fee 25, commission floor(7.5) = 7
  const b = await pay(app, r, { amount: 10_000, currency: 'usd' }); // platform fee 100, commission 30
  assert.is(commissionOf(25, 30), 7);
  assert.equal([await availableOf(app.db, r.partner.id), await pendingOf(r.partner.id)], [0, 37]);
  const platform = await app.db('ledger_postings').whereIn('entry_id', [`${a.id}:partner`, `${b.id}:partner`]).select('bucket', 'amount');
  assert.is(platform.reduce((s: number, p: any) => s + Number(p.amount), 0), 0);
  const business = (await get(r.partner.token, `/partners/businesses/${r.businessId}`)).body;
  // Neither payment's funds have cleared: all of it awaits settlement (test/partners/partner-settlement.test.ts clears it).
  assert.equal(business.volume_usd, { attributed: '125.00', awaiting_settlement: '125.00', settled: '0.00' });
  assert.equal(business.earnings_usd, { completed: '0.00', pending: '0.37', total: '0.37' });
  const earnings = await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`);
  assert.is(earnings.status, 200, JSON.stringify(earnings.body));
  const [newest, oldest] = earnings.body.data;
  assert.equal([newest.transaction_amount_usd, newest.commission_amount_usd, newest.payout_percentage, newest.status, newest.income_source, newest.second_tier],
    ['100.00', '0.30', 30, 'awaiting_settlement', 'sales', false]);
  assert.is(newest.payout_at, null);
  assert.equal([newest.resource.id, newest.resource.object, newest.resource.currency], [b.id, 'receipt', 'usd']);
  assert.equal(oldest.commission_amount_usd, '0.07');
  assert.equal((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?first=1`)).body.data.length, 1);
  assert.equal((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?status=reversed`)).body.data, []);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('an account without a referrer, and a declined payment, earn nobody anything', async () => {
  const r = await referred();
  await pay(app, r, { amount: 2_500, currency: 'usd' }, { card: '4000000000000002' });
  assert.is(await availableOf(app.db, r.partner.id), 0);
  const plain = await makeOwner(app.db);
  assert.is((await app.db('partner_businesses').where({ account_id: plain.accountId })).length, 0);
});

t('list is the caller\'s own; another partner\'s business and its earnings are 404; API keys refused', async () => {
  const r = await referred();
  const other = await referred();
  const list = await get(r.partner.token, '/partners/businesses');
  assert.equal(list.body.data.map((b: any) => b.id), [r.businessId]);
  assert.equal((await get(r.partner.token, '/partners/businesses?status=removed')).body.data, []);
  assert.is((await get(r.partner.token, `/partners/businesses/${other.businessId}`)).status, 404);
  assert.is((await get(r.partner.token, `/partners/businesses/${other.businessId}/earnings`)).status, 404);
  assert.is((await get(r.partner.token, '/partners/businesses/pbiz_nope')).status, 404);
  assert.is((await get(r.key, '/partners/businesses')).status, 403);
});

t('at 2026-07-20 (before entries 55 and 58): payout_percentage, flat totals, receipt_id and product_id', async () => {
  const r = await referred();
  const variant = await makeVariant(app, r.accountId, { price: 10_000, planType: 'one_time' });
  const p = await pay(app, r, { plan_id: variant.id });
  const { product_id: productId, title } = await app.db('payments').join('products', 'products.id', 'payments.product_id')
    .where('payments.id', p.id).first('payments.product_id', 'products.title');
  const head = (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`)).body.data[0];
  const old = await get(r.partner.token, `/partners/businesses/${r.businessId}`, '2026-07-20');
  assert.is(old.status, 200, JSON.stringify(old.body));
  assert.equal([old.body.payout_percentage, old.body.total_volume_usd, old.body.total_earnings_usd], [30, '100.00', '0.30']);
  for (const gone of ['payout_percentages', 'volume_usd', 'earnings_usd']) assert.not.ok(gone in old.body, gone);
  const earning = (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`, '2026-07-20')).body.data[0];
  assert.equal([earning.receipt_id, earning.product_id, earning.commission_amount_usd], [p.id, productId, '0.30']);
  assert.ok(!('resource' in earning) && !('product' in earning));
  assert.equal([head.product, head.resource.id], [{ id: productId, title }, p.id]);
  const list = (await get(r.partner.token, '/partners/businesses', '2026-07-20')).body.data[0];
  assert.is(list.payout_percentage, 30);
});

t('referral requests: request_type link gives the link whose a= is the affiliate_code; url before 2026-08-25', async () => {
  const partner = await makeUser(app.db);
  const other = await makeUser(app.db);
  const made = await app.request('POST', '/partners/referral_requests', { token: partner.token, version: headVersion(), body: { request_type: 'link' } });
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.match(made.body.id, /^prr_/);
  assert.is(made.body.request_type, 'link');
  assert.is(new URL(made.body.referral_link).searchParams.get('a'), partner.user.username);
  const bad = await app.request('POST', '/partners/referral_requests', { token: partner.token, version: headVersion(), body: { request_type: 'url' } });
  assert.equal([bad.status, bad.body.error.param], [400, 'request_type']);
  const old = await app.request('POST', '/partners/referral_requests', { token: partner.token, version: '2026-08-14', body: { request_type: 'url' } });
  assert.equal([old.status, old.body.request_type], [201, 'url']);
  const oldRefused = await app.request('POST', '/partners/referral_requests', { token: partner.token, version: '2026-08-14', body: { request_type: 'link' } });
  assert.is(oldRefused.status, 400);
  const list = await get(partner.token, '/partners/referral_requests');
  assert.equal(list.body.data.map((r: any) => [r.id, r.request_type]), [[old.body.id, 'link'], [made.body.id, 'link']]);
  assert.equal((await get(partner.token, '/partners/referral_requests', '2026-08-14')).body.data.map((r: any) => r.request_type), ['url', 'url']);
  assert.equal((await get(other.token, '/partners/referral_requests')).body.data, []);
  const key = (await makeOwner(app.db)).key;
  assert.is((await app.request('POST', '/partners/referral_requests', { token: key, version: headVersion(), body: { request_type: 'link' } })).status, 403);
});

t.run();
