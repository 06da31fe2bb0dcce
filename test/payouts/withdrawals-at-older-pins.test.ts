// GET and POST /withdrawals: retired on 2026-08-21 (410), working at older pins in the legacy withdrawal shape; a
// withdrawal is a payout, made through POST /payouts' code path.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { available, payoutOwner, settle, VERSION } from './payout-fixtures.js';

const OLD = '2026-07-22';
const t = suite('withdrawals at older pins');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('POST /withdrawals before 2026-08-21 requests a payout: reserved, listed by GET /payouts, answered as a withdrawal', async () => {
  const o = await payoutOwner(app, 100_000);
  const body = { company_id: o.accountId, amount: 25.5, currency: 'usd', payout_method_id: o.methodId };
  const res = await app.request('POST', '/withdrawals', { token: o.key, version: OLD, body });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.id, /^wdrl_/);
  assert.equal([res.body.amount, res.body.currency, res.body.status, res.body.fee_type, res.body.ledger_account.company_id, res.body.payout_token.id],
    [25.5, 'usd', 'requested', 'inclusive', o.accountId, o.methodId]);
  assert.is(await available(app, o.ledger), 100_000 - 2_550);
  const payouts = await app.request('GET', `/payouts?account_id=${o.accountId}`, { token: o.key, version: VERSION });
  assert.equal(payouts.body.data.map((p: any) => [p.id, p.amount, p.status]), [[res.body.id, '25.50', 'requested']]);
  const event = await app.db('events').where({ type: 'payout.created', account_id: o.accountId }).first('data');
  assert.is(event?.data.id, res.body.id, 'the same event as POST /payouts records');
  await settle(app, res.body.id);
  const later = await app.request('GET', `/withdrawals/${res.body.id}`, { token: o.key, version: OLD });
  assert.is(later.body.status, 'completed');
});

t('POST /withdrawals: the default method without payout_method_id, the body key as the Idempotency-Key, the rules of POST /payouts', async () => {
  const o = await payoutOwner(app, 100_000);
  const body = { company_id: o.accountId, amount: 10, currency: 'usd', idempotency_key: 'wd-key-1' };
  const first = await app.request('POST', '/withdrawals', { token: o.key, version: OLD, body });
  assert.is(first.status, 201, JSON.stringify(first.body));
  assert.is(first.body.payout_token.id, o.methodId, 'the account\'s default method');
  const again = await app.request('POST', '/withdrawals', { token: o.key, version: OLD, body });
  assert.equal([again.status, again.headers.get('idempotent-replayed'), again.body.id], [201, 'true', first.body.id]);
  assert.is(await available(app, o.ledger), 100_000 - 1_000);
  const refusals: [Record<string, unknown>, string][] = [
    [{ amount: 5_000 }, 'insufficient_funds'],
    [{ amount: 1.005 }, 'invalid_request'],
    [{ currency: 'eur' }, 'invalid_request'],
    [{ platform_covers_fees: true }, 'invalid_request'],
    [{ payout_method_id: 'potk_nothing' }, 'not_found'],
  ];
  for (const [change, type] of refusals) {
    const res = await app.request('POST', '/withdrawals', { token: o.key, version: OLD, body: { company_id: o.accountId, amount: 10, currency: 'usd', ...change } });
    assert.is(res.body.error?.type, type, JSON.stringify([change, res.body]));
  }
  assert.is(await available(app, o.ledger), 100_000 - 1_000, 'a refused withdrawal reserves nothing');
  const bare = await makeOwner(app.db);
  const none = await app.request('POST', '/withdrawals', { token: bare.key, version: OLD, body: { company_id: bare.accountId, amount: 10, currency: 'usd' } });
  assert.equal([none.status, none.body.error.param], [400, 'payout_method_id']);
});

t('GET /withdrawals before 2026-08-21: the account\'s payouts in the withdrawal shape, paged, dated, in either direction', async () => {
  const o = await payoutOwner(app, 100_000);
  const ids: string[] = [];
  for (const amount of ['11.00', '12.00', '13.00']) {
    const p = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount } });
    ids.push(p.body.id);
  }
  const page = await app.request('GET', `/withdrawals?company_id=${o.accountId}&first=2`, { token: o.key, version: OLD });
  assert.is(page.status, 200, JSON.stringify(page.body));
  assert.equal(page.body.data.map((w: any) => [w.id, w.amount]), [[ids[2], 13], [ids[1], 12]]);
  assert.is(page.body.page_info.has_next_page, true);
  const next = await app.request('GET', `/withdrawals?company_id=${o.accountId}&first=2&after=${page.body.page_info.end_cursor}`, { token: o.key, version: OLD });
  assert.equal(next.body.data.map((w: any) => w.id), [ids[0]]);
  const asc = await app.request('GET', `/withdrawals?company_id=${o.accountId}&direction=asc`, { token: o.key, version: OLD });
  assert.equal(asc.body.data.map((w: any) => w.id), ids);
  const created = new Date((await app.db('payouts').where({ id: ids[1] }).first('created_at')).created_at);
  const before = await app.request('GET', `/withdrawals?company_id=${o.accountId}&created_before=${encodeURIComponent(created.toISOString())}`, { token: o.key, version: OLD });
  assert.equal(before.body.data.map((w: any) => w.id), [ids[0]]);
  const after = await app.request('GET', `/withdrawals?company_id=${o.accountId}&created_after=${encodeURIComponent(created.toISOString())}`, { token: o.key, version: OLD });
  assert.equal(after.body.data.map((w: any) => w.id), [ids[2]]);
  const missing = await app.request('GET', '/withdrawals', { token: o.key, version: OLD });
  assert.equal([missing.status, missing.body.error.param], [400, 'company_id']);
});

t('withdrawals: scopes, another account\'s refused, and 410 with the successor from 2026-08-21', async () => {
  const o = await payoutOwner(app, 100_000);
  const other = await makeOwner(app.db);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const list = (token: string, version = OLD) => app.request('GET', `/withdrawals?company_id=${o.accountId}`, { token, version });
  assert.is((await list(viewer.secret)).status, 403);
  assert.is((await list(other.key)).status, 404);
  const create = (token: string, version = OLD) => app.request('POST', '/withdrawals', { token, version, body: { company_id: o.accountId, amount: 10, currency: 'usd', payout_method_id: o.methodId } });
  assert.is((await create(viewer.secret)).status, 403);
  assert.is((await create(other.key)).status, 404);
  assert.is(await available(app, o.ledger), 100_000);
  for (const version of ['2026-08-21', VERSION]) {
    for (const res of [await list(o.key, version), await create(o.key, version)]) {
      assert.equal([res.status, res.body.error?.type], [410, 'gone'], JSON.stringify([version, res.body]));
      assert.match(res.body.error.message, /gone as of API version 2026-08-21; use \/api\/v1\/payouts/);
    }
  }
  assert.is((await list(o.key, '2026-08-14')).status, 200, 'the version before: still served');
});

t.run();
