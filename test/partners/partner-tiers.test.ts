// Partner tiers and removal over HTTP: an account referred by a partner who was itself referred is a second-tier
// partner business of the upper partner, earning payout_percentages.sales 5 of the platform fee alongside the first
// tier's 30; a partner removes a relation and it earns nothing new.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeUser } from '../helpers/fixtures.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { pay, settleRefunds } from '../payments/payment-fixtures.js';
import { headVersion } from '../../runtime/versions.js';

const t = suite('partner tiers');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (token: string, path: string) => app.request('GET', path, { token, version: headVersion() });
const pendingOf = async (userId: string) =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, userId), currency: 'usd', bucket: 'pending' }).first('amount'))?.amount ?? 0);

/** `owner` creates an account referred by `partnerUsername`; its admin key and client id. */
async function shopOf(owner: { token: string }, partnerUsername: string) {
  const res = await app.request('POST', '/accounts', { token: owner.token, version: headVersion(), body: { title: 'Tiered shop', affiliate_code: partnerUsername } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const accountId = res.body.id as string;
  const key = (await makeKey(app.db, { accountId, role: 'admin' })).secret;
  const { client_id } = await app.db('accounts').where({ id: accountId }).first('client_id');
  return { accountId, key, clientId: client_id as string };
}

/** upper referred lower (lower owns an account upper referred); lower referred the shop. */
async function chain() {
  const upper = await makeUser(app.db);
  const lower = await makeUser(app.db);
  await shopOf(lower, upper.user.username);
  const shop = await shopOf(await makeUser(app.db), lower.user.username);
  const businessOf = async (u: { token: string }) =>
    (await get(u.token, '/partners/businesses')).body.data.find((b: any) => b.account.id === shop.accountId);
  return { upper, lower, shop, first: await businessOf(lower), second: await businessOf(upper) };
}

t('a referral chain: the referrer is first tier, its own referrer second tier, each a business of its own', async () => {
  const { upper, lower, first, second } = await chain();
  assert.equal([first.my_partner_tier, first.payout_percentages.sales, first.status], ['first', 30, 'active']);
  assert.equal([second.my_partner_tier, second.payout_percentages.sales, second.status], ['second', 5, 'active']);
  assert.is.not(first.id, second.id);
  // The upper partner's list: the account its referral referred (first tier) and the shop (second tier).
  assert.equal((await get(upper.token, '/partners/businesses?tier=second')).body.data.map((b: any) => b.id), [second.id]);
  assert.is((await get(upper.token, '/partners/businesses?tier=first')).body.data.length, 1);
  assert.equal((await get(lower.token, '/partners/businesses?tier=second')).body.data, []);
  assert.is((await get(lower.token, `/partners/businesses/${second.id}`)).status, 404);
});

t('a payment earns both tiers: 30% and 5% of the platform fee, second_tier on the upper one\'s earnings; a refund reverses both', async () => {
  const { upper, lower, shop, first, second } = await chain();
  const p = await pay(app, shop, { amount: 10_000, currency: 'usd' }); // platform fee 100: 30 and 5
  const [mine] = (await get(lower.token, `/partners/businesses/${first.id}/earnings`)).body.data;
  const [theirs] = (await get(upper.token, `/partners/businesses/${second.id}/earnings`)).body.data;
  assert.equal([mine.commission_amount_usd, mine.payout_percentage, mine.second_tier, mine.resource.id], ['0.30', 30, false, p.id]);
  assert.equal([theirs.commission_amount_usd, theirs.payout_percentage, theirs.second_tier, theirs.resource.id], ['0.05', 5, true, p.id]);
  assert.equal([await pendingOf(lower.id), await pendingOf(upper.id)], [30, 5]);
  assert.equal((await get(upper.token, `/partners/businesses/${second.id}`)).body.earnings_usd, { completed: '0.00', pending: '0.05', total: '0.05' });

  const refunded = await app.request('POST', `/payments/${p.id}/refund`, { token: shop.key, version: headVersion(), body: {} });
  assert.is(refunded.status, 200, JSON.stringify(refunded.body));
  await settleRefunds(app, p.id);
  const reversed = (await get(upper.token, `/partners/businesses/${second.id}/earnings?status=reversed`)).body.data;
  assert.equal(reversed.map((e: any) => [e.commission_amount_usd, e.second_tier, e.reversal.earning_id]), [['-0.05', true, theirs.id]]);
  assert.equal((await get(lower.token, `/partners/businesses/${first.id}/earnings?status=reversed`)).body.data.map((e: any) => e.commission_amount_usd), ['-0.30']);
  assert.equal([await pendingOf(lower.id), await pendingOf(upper.id)], [0, 0]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('remove: status removed, no new earnings for it (nor for the second tier above it); idempotent; others 404', async () => {
  const { upper, lower, shop, first, second } = await chain();
  await pay(app, shop, { amount: 10_000, currency: 'usd' });
  assert.is((await app.request('POST', `/partners/businesses/${first.id}/remove`, { token: upper.token, version: headVersion() })).status, 404);
  const removed = await app.request('POST', `/partners/businesses/${first.id}/remove`, { token: lower.token, version: headVersion() });
  assert.is(removed.status, 200, JSON.stringify(removed.body));
  assert.equal([removed.body.id, removed.body.status], [first.id, 'removed']);
  const again = await app.request('POST', `/partners/businesses/${first.id}/remove`, { token: lower.token, version: headVersion() });
  assert.equal([again.status, again.body.status], [200, 'removed']);
  assert.equal((await get(lower.token, '/partners/businesses?status=removed')).body.data.map((b: any) => b.id), [first.id]);
  assert.equal((await get(lower.token, '/partners/businesses?status=active')).body.data.map((b: any) => b.account.id).includes(shop.accountId), false);
  // A later payment earns neither tier: the second tier earns only alongside the first.
  await pay(app, shop, { amount: 10_000, currency: 'usd' });
  assert.is((await get(lower.token, `/partners/businesses/${first.id}/earnings`)).body.data.length, 1);
  assert.is((await get(upper.token, `/partners/businesses/${second.id}/earnings`)).body.data.length, 1);
  assert.equal([await pendingOf(lower.id), await pendingOf(upper.id)], [30, 5]);
  // The earning made before stays.
  assert.equal((await get(lower.token, `/partners/businesses/${first.id}`)).body.earnings_usd.total, '0.30');
});

t('removing the second tier alone leaves the first earning', async () => {
  const { upper, lower, shop, first, second } = await chain();
  assert.is((await app.request('POST', `/partners/businesses/${second.id}/remove`, { token: upper.token, version: headVersion() })).status, 200);
  await pay(app, shop, { amount: 10_000, currency: 'usd' });
  assert.is((await get(lower.token, `/partners/businesses/${first.id}/earnings`)).body.data.length, 1);
  assert.equal((await get(upper.token, `/partners/businesses/${second.id}/earnings`)).body.data, []);
});

t.run();
