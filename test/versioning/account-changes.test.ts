// Each implemented changelog entry on accounts, observed at the version just before it and the version that made it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeAccount } from '../helpers/fixtures.js';
import { renderAt } from '../../runtime/render.js';
import { insertPostings } from '../helpers/ledger.js';
import { disableWithdrawals, enableWithdrawals } from '../helpers/operator.js';
import { complianceReview, holdForKyc } from '../payouts/payout-fixtures.js';

const t = suite('versioning: account changes');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db, { title: 'Versioned' });
});
t.after(async () => { await app.close(); });

const get = (version: string, id = owner.accountId) => app.request('GET', `/accounts/${id}`, { token: owner.key, version });
/** Sets business categories as a client pinned before 2026-09-06 does (they are read-only from it). */
async function categorize(body: { business_type?: string; industry_type?: string }) {
  const res = await app.request('PATCH', `/accounts/${owner.accountId}`, { token: owner.key, version: '2026-09-02', body });
  assert.is(res.status, 200, JSON.stringify(res.body));
}

t('the newest version has no transformer cost: the shape is the head shape', async () => {
  const res = await get('2026-09-06');
  assert.is(res.status, 200);
  assert.is(res.headers.get('api-version-date'), '2026-09-06');
  assert.not.ok('industry_group' in res.body);
  assert.ok('rewards' in res.body);
  assert.ok('parent_account' in res.body);
});

t('#1 industry_group exists before 2026-09-06 and not from it', async () => {
  await categorize({ industry_type: 'fitness' });
  assert.is((await get('2026-09-02')).body.industry_group, 'fitness');
  assert.not.ok('industry_group' in (await get('2026-09-06')).body);
});

t('#5 and #29 undated_pending_reason values appear only from their versions', async () => {
  await complianceReview(app, owner);
  assert.is((await get('2026-09-02')).body.payment_controls.undated_pending_reason, 'compliance_review');
  assert.is((await get('2026-08-28')).body.payment_controls.undated_pending_reason, null);
  await disableWithdrawals(app.db, owner.accountId);
  assert.is((await get('2026-08-25')).body.payment_controls.undated_pending_reason, 'withdrawals_disabled');
  assert.is((await get('2026-08-21')).body.payment_controls.undated_pending_reason, null);
  await enableWithdrawals(app.db, owner.accountId);
  await holdForKyc(app, owner);
  assert.is((await get('2025-01-01')).body.payment_controls.undated_pending_reason, 'kyc_incomplete');
});

t('#6 the weekly offer and auto_renew exist from 2026-09-02', async () => {
  const now = (await get('2026-09-02')).body.economic_intelligence_offers;
  assert.ok(now.some((o: any) => o.key === 'weekly' && o.auto_renew === true));
  const before = (await get('2026-08-28')).body.economic_intelligence_offers;
  assert.ok(before.length > 0);
  assert.not.ok(before.some((o: any) => o.key === 'weekly'));
  assert.not.ok(before.some((o: any) => 'auto_renew' in o));
});

t('#16 offers carry key/duration/duration_unit from 2026-08-28, duration_days before', async () => {
  const after = (await get('2026-08-28')).body.economic_intelligence_offers;
  const days30 = after.find((o: any) => o.key === 'days_30');
  assert.equal({ duration: days30.duration, duration_unit: days30.duration_unit }, { duration: 30, duration_unit: 'days' });
  assert.not.ok('duration_days' in days30);
  const before = (await get('2026-08-25')).body.economic_intelligence_offers;
  assert.ok(before.every((o: any) => !('key' in o) && !('duration' in o) && !('duration_unit' in o)));
  assert.equal(before.map((o: any) => o.duration_days).sort((a: number, b: number) => a - b), [2, 30, 90]);
});

t('#21 rewards are returned from 2026-08-25', async () => {
  assert.ok(Array.isArray((await get('2026-08-25')).body.rewards));
  assert.not.ok('rewards' in (await get('2026-08-21')).body);
});

t('#24 frictionless is a named policy from 2026-08-25 and null before; old null writes mean frictionless', async () => {
  assert.is((await get('2026-08-25')).body.three_d_secure_policy, 'frictionless_if_required');
  assert.is((await get('2026-08-21')).body.three_d_secure_policy, null);
  const patch = (version: string, value: unknown) =>
    app.request('PATCH', `/accounts/${owner.accountId}`, { token: owner.key, version, body: { three_d_secure_policy: value } });
  const set = await patch('2026-08-21', 'mandate_if_required');
  assert.is(set.status, 200);
  assert.is(set.body.three_d_secure_policy, 'mandate_if_required');
  const old = await patch('2026-08-21', null);
  assert.is(old.status, 200);
  assert.is(old.body.three_d_secure_policy, null);
  assert.is((await get('2026-09-06')).body.three_d_secure_policy, 'frictionless_if_required');
  const refused = await patch('2026-08-25', null);
  assert.is(refused.status, 400);
  assert.is(refused.body.error.param, 'three_d_secure_policy');
  const oldName = await patch('2026-08-21', 'frictionless_if_required');
  assert.is(oldName.status, 400);
});

t('#27 business categories keep their old names for pins before 2026-08-25', async () => {
  await categorize({ business_type: 'education' });
  assert.is((await get('2026-08-25')).body.business_type, 'education');
  assert.is((await get('2026-08-21')).body.business_type, 'coaching_and_courses');
  await categorize({ business_type: 'software' });
  assert.is((await get('2026-08-21')).body.business_type, 'software');
});

t('#1 and #27 business categories are writable before 2026-09-06 only, with old names before 2026-08-25', async () => {
  const patch = (version: string, body: unknown) => app.request('PATCH', `/accounts/${owner.accountId}`, { token: owner.key, version, body });
  const latest = await patch('2026-09-06', { business_type: 'education' });
  assert.is(latest.status, 400);
  assert.is(latest.body.error.param, 'business_type');
  assert.is((await patch('2026-09-06', { industry_type: 'fitness' })).body.error.param, 'industry_type');
  const current = await patch('2026-09-02', { business_type: 'education', industry_type: 'gaming' });
  assert.is(current.status, 200);
  assert.is(current.body.business_type, 'education');
  assert.is(current.body.industry_group, 'gaming');
  const oldName = await patch('2026-08-21', { business_type: 'physical_product' });
  assert.is(oldName.status, 200);
  assert.is(oldName.body.business_type, 'physical_product');
  assert.is((await get('2026-09-06')).body.business_type, 'ecommerce');
  const renamedAway = await patch('2026-09-02', { business_type: 'physical_product' });
  assert.is(renamedAway.status, 400);
  assert.match(renamedAway.body.error.message, 'ecommerce');
  const unknown = await patch('2026-08-21', { business_type: 'spaceflight' });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.param, 'business_type');
  const wrongKind = await patch('2026-09-02', { industry_type: 'education' });
  assert.is(wrongKind.status, 400);
  assert.is(wrongKind.body.error.param, 'industry_type');
});

t('#42 pending includes in_transit before 2026-08-07', async () => {
  await insertPostings(app.db, [
    { entry_id: 'e1', account_id: owner.accountId, bucket: 'pending', currency: 'usd', amount: 1000 },
    { entry_id: 'e1', account_id: owner.accountId, bucket: 'in_transit', currency: 'usd', amount: 250 },
    { entry_id: 'e1', account_id: owner.accountId, bucket: 'processor_clearing', currency: 'usd', amount: -1250 },
  ]);
  const after = (await get('2026-08-07')).body.balance;
  assert.is(after.pending.amount, 1000);
  assert.is(after.in_transit.amount, 250);
  const before = (await get('2026-07-30')).body.balance;
  assert.is(before.pending.amount, 1250);
  assert.not.ok('in_transit' in before);
});

t('#47 parent_account replaces parent_account_id from 2026-07-30', async () => {
  const child = await makeAccount(app.db, { parentId: owner.accountId, title: 'Child' });
  const after = (await get('2026-07-30', child.id)).body;
  assert.is(after.parent_account.id, owner.accountId);
  assert.not.ok('parent_account_id' in after);
  const before = (await get('2026-07-23', child.id)).body;
  assert.is(before.parent_account_id, owner.accountId);
  assert.not.ok('parent_account' in before);
  assert.is((await get('2026-07-23')).body.parent_account_id, null);
});

t('the oldest version crosses every account change at once, in lists too', async () => {
  const res = await app.request('GET', '/accounts', { token: owner.key, version: '2025-01-01' });
  assert.is(res.status, 200);
  const row = res.body.data.find((a: any) => a.id === owner.accountId);
  for (const gone of ['rewards', 'parent_account']) assert.not.ok(gone in row, gone);
  for (const kept of ['industry_group', 'parent_account_id']) assert.ok(kept in row, kept);
  assert.not.ok('in_transit' in row.balance);
});

t('#54 timestamp inputs take epoch seconds before 2026-07-22 and only ISO 8601 from it', async () => {
  const epoch = Math.floor(Date.parse('2020-01-01T00:00:00Z') / 1000);
  const old = await app.request('GET', '/accounts', { token: owner.key, version: '2025-01-01', query: { created_after: epoch } });
  assert.is(old.status, 200);
  assert.ok(old.body.data.length > 0);
  const future = Math.floor(Date.parse('2099-01-01T00:00:00Z') / 1000);
  const none = await app.request('GET', '/accounts', { token: owner.key, version: '2025-01-01', query: { created_after: future } });
  assert.is(none.body.data.length, 0);
  const now = await app.request('GET', '/accounts', { token: owner.key, version: '2026-07-22', query: { created_after: epoch } });
  assert.is(now.status, 400);
  assert.is(now.body.error.param, 'created_after');
});

t('retired endpoints answer 410 gone from their version on, and work in their older shape before it', async () => {
  const gone = await app.request('GET', '/ad_reports', { token: owner.key, version: '2026-09-06' });
  assert.is(gone.status, 410);
  assert.is(gone.body.error.type, 'gone');
  assert.match(gone.body.error.message, '/stats/ad_delivery');
  assert.is((await app.request('GET', '/ad_reports', { token: owner.key, version: '2026-08-21' })).status, 410);
  const older = await app.request('GET', '/ad_reports', { token: owner.key, version: '2026-08-14' });
  assert.equal([older.status, older.body.error.param], [400, 'company_id'], 'served, in its older shape, before 2026-08-21');
  for (const method of ['GET', 'POST']) {
    const res = await app.request(method, '/withdrawals', { token: owner.key, version: '2026-09-06', body: method === 'POST' ? {} : undefined });
    assert.is(res.status, 410, `${method} /withdrawals`);
    assert.is(res.body.error.type, 'gone');
  }
  const retry = await app.request('POST', '/ad_campaigns/adcamp_1/retry_payment', { token: owner.key, version: '2026-08-25' });
  assert.is(retry.status, 410);
  const unknown = await app.request('POST', '/ad_campaigns/adcamp_1/retry_payment', { token: owner.key, version: '2026-08-21' });
  assert.equal([unknown.status, unknown.body.error.type], [404, 'not_found'], 'served before 2026-08-25: no such campaign');
  assert.match(unknown.body.error.message, /ad campaign/);
});

t('the standalone renderer shows one resource at two pins without touching the original', async () => {
  const head = (await get('2026-09-06')).body;
  const snapshot = JSON.stringify(head);
  const old = renderAt('Account', head, '2025-01-01') as any;
  const mid = renderAt('Account', head, '2026-08-10') as any; // resolves to 2026-08-07
  assert.is(JSON.stringify(head), snapshot);
  assert.ok('parent_account_id' in old);
  assert.not.ok('rewards' in old);
  assert.ok('parent_account' in mid);
  assert.not.ok('rewards' in mid);
  assert.is(renderAt('Account', head, '2026-09-06'), head);
  assert.throws(() => renderAt('Account', head, '2024-12-31'));
});

t.run();
