// POST /transfers type balance at the latest version: sides, fee, ledger, rules and errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { availableOf, keyWithRole, makeBusiness, makeWalletUser, transfer, usd, VERSION } from './transfer-fixtures.js';

const t = suite('transfers: balance');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const post = (token: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  app.request('POST', '/transfers', { token, version: VERSION, body, idempotencyKey });

t('an account sends to another account: completed, 1% fee on top, both balances moved, profiles shown', async () => {
  const a = await makeBusiness(app, 10_000, 'Sender Shop');
  const b = await makeBusiness(app, 0, 'Receiver Shop');
  const logo = await app.request('PATCH', `/accounts/${b.accountId}`, { token: b.key, version: VERSION, body: { logo_url: 'https://cdn.example.com/b.png' } });
  assert.is(logo.status, 200, JSON.stringify(logo.body));
  const res = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 2_550, notes: 'rent', metadata: { ref: 'r1' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const x = res.body;
  assert.match(x.id, /^xfer_/);
  assert.is(x.type, 'balance');
  assert.is(x.status, 'completed');
  assert.equal(x.amount, usd(2_550));
  assert.equal(x.fee, usd(26), '1% of 25.50 is 0.255, rounded half up');
  const route = (await app.db('accounts').where({ id: a.accountId }).first('route')).route;
  assert.equal(x.origin, { id: a.accountId, name: 'Sender Shop', logo_url: null, route, username: null });
  assert.is(x.destination.id, b.accountId);
  assert.is(x.destination.name, 'Receiver Shop');
  assert.is(x.destination.logo_url, 'https://cdn.example.com/b.png');
  assert.match(x.origin_ledger_account_id, /^ldgr_/);
  assert.match(x.destination_ledger_account_id, /^ldgr_/);
  assert.is(x.claim_link_id, null);
  assert.is(x.claim_url, null);
  assert.is(x.redeemable_count, null);
  assert.is(x.notes, 'rent');
  assert.equal(x.metadata, { ref: 'r1' });
  assert.match(x.tracking_url, /\/transfers\/track\/[A-Za-z0-9]{32}$/);
  assert.is(x.failed_at, null);
  assert.is(x.funds_returned_at, null);
  assert.is(await availableOf(app.db, a.accountId), 10_000 - 2_550 - 26);
  assert.is(await availableOf(app.db, b.accountId), 2_550);
  const report = await verifyLedger(app.db);
  assert.equal(report.mismatches, []);
  assert.equal(report.unbalancedEntries, []);
  const again = await app.request('GET', `/transfers/${x.id}`, { token: b.key, version: VERSION });
  assert.is(again.status, 200);
  assert.equal(again.body, x, 'the destination reads the same transfer');
});

t('wallets: a user sends from their own wallet to a user and to an account, and an account pays a user', async () => {
  const alice = await makeWalletUser(app, 5_000, 'Alice');
  const bob = await makeWalletUser(app, 0, 'Bob');
  const shop = await makeBusiness(app, 3_000);
  const toBob = await transfer(app, alice.token, { type: 'balance', origin_id: alice.id, destination_id: bob.id, amount: 1_000 });
  assert.equal(toBob.origin, { id: alice.id, name: 'Alice', logo_url: null, route: null, username: alice.user.username });
  assert.is(toBob.destination.id, bob.id);
  await transfer(app, alice.token, { type: 'balance', origin_id: alice.id, destination_id: shop.accountId, amount: 500 });
  await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: bob.id, amount: 200 });
  assert.is(await availableOf(app.db, alice.id), 5_000 - 1_010 - 505);
  assert.is(await availableOf(app.db, bob.id), 1_200);
  assert.is(await availableOf(app.db, shop.accountId), 3_000 + 500 - 202);
});

t('an origin that cannot cover amount + fee is a 400 insufficient_funds and nothing is written', async () => {
  const a = await makeBusiness(app, 1_000);
  const b = await makeBusiness(app);
  const before = await app.db('transfers').count({ n: '*' }).first();
  const postingsBefore = await app.db('ledger_postings').count({ n: '*' }).first();
  const res = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 991 });
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'insufficient_funds');
  assert.is(res.body.error.param, 'amount');
  assert.equal(await app.db('transfers').count({ n: '*' }).first(), before);
  assert.equal(await app.db('ledger_postings').count({ n: '*' }).first(), postingsBefore);
  assert.is(await availableOf(app.db, a.accountId), 1_000);
  const exact = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 990 });
  assert.is(exact.status, 201, 'amount 990 + fee 10 is exactly what is there');
  assert.is(await availableOf(app.db, a.accountId), 0);
  const other = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 1, currency: 'eur' });
  assert.is(other.status, 400, 'no balance in that currency');
  assert.is(other.body.error.type, 'insufficient_funds');
});

t('the request shape: type required at the latest version, destination rules, claim-link-only fields', async () => {
  const a = await makeBusiness(app, 10_000);
  const b = await makeBusiness(app);
  const base = { origin_id: a.accountId, destination_id: b.accountId, amount: 100 };
  const cases: [Record<string, unknown>, string][] = [
    [base, 'type'],
    [{ ...base, type: 'ledger' }, 'type'],
    [{ ...base, type: 'wallet_send' }, 'type'],
    [{ type: 'balance', origin_id: a.accountId, amount: 100 }, 'destination_id'],
    [{ ...base, type: 'balance', destination_id: a.accountId }, 'destination_id'],
    [{ ...base, type: 'balance', expires_at: new Date(Date.now() + 86_400_000).toISOString() }, 'expires_at'],
    [{ ...base, type: 'balance', redeemable_count: 2 }, 'redeemable_count'],
    [{ ...base, type: 'balance', amount: 0 }, 'amount'],
    [{ ...base, type: 'balance', amount: 10.5 }, 'amount'],
    [{ ...base, type: 'balance', origin_id: 'ldgr_abc' }, 'origin_id'],
    [{ ...base, type: 'balance', currency: 'USD' }, 'currency'],
    [{ ...base, type: 'balance', company_id: a.accountId }, 'company_id'],
  ];
  for (const [body, param] of cases) {
    const res = await post(a.key, body);
    assert.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error.param, param, JSON.stringify(res.body));
  }
});

t('sides: an unknown destination is a 404 naming it; an origin the caller cannot see is a 404, one without the scope a 403', async () => {
  const a = await makeBusiness(app, 10_000);
  const stranger = await makeBusiness(app, 10_000);
  const bob = await makeWalletUser(app, 1_000);
  const missing = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: 'biz_doesnotexist', amount: 100 });
  assert.is(missing.status, 404);
  assert.is(missing.body.error.param, 'destination_id');
  const noUser = await post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: 'user_doesnotexist', amount: 100 });
  assert.is(noUser.status, 404);
  assert.is(noUser.body.error.param, 'destination_id');
  const theirs = await post(a.key, { type: 'balance', origin_id: stranger.accountId, destination_id: a.accountId, amount: 100 });
  assert.is(theirs.status, 404);
  assert.is(theirs.body.error.param, 'origin_id');
  const wallet = await post(a.key, { type: 'balance', origin_id: bob.id, destination_id: a.accountId, amount: 100 });
  assert.is(wallet.status, 404, 'an API key never reaches a user\'s wallet');
  assert.is(wallet.body.error.param, 'origin_id');
  const othersWallet = await post(a.token, { type: 'balance', origin_id: bob.id, destination_id: a.accountId, amount: 100 });
  assert.is(othersWallet.status, 404, 'nor another user\'s token');
  const viewer = await keyWithRole(app.db, a.accountId, 'viewer');
  const denied = await post(viewer, { type: 'balance', origin_id: a.accountId, destination_id: stranger.accountId, amount: 100 });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  assert.is(await availableOf(app.db, a.accountId), 10_000);
});

t('Idempotency-Key: a retried create replays the first answer and moves the money once', async () => {
  const a = await makeBusiness(app, 10_000);
  const b = await makeBusiness(app);
  const body = { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 1_000 };
  const first = await post(a.key, body, 'xfer-retry-1');
  const second = await post(a.key, body, 'xfer-retry-1');
  assert.is(first.status, 201);
  assert.is(second.status, 201);
  assert.is(second.headers.get('idempotent-replayed'), 'true');
  assert.equal(second.body, first.body);
  assert.is(await availableOf(app.db, b.accountId), 1_000);
  const changed = await post(a.key, { ...body, amount: 999 }, 'xfer-retry-1');
  assert.is(changed.status, 400);
  assert.is(changed.body.error.type, 'idempotency_error');
});

t('idempotence_key makes the transfer once per origin: the same request returns it, another one is a 409', async () => {
  const a = await makeBusiness(app, 10_000);
  const b = await makeBusiness(app);
  const body = { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 1_000, idempotence_key: 'invoice-7' };
  const first = await transfer(app, a.key, body);
  const again = await transfer(app, a.token, body);
  assert.is(again.id, first.id, 'another credential, the same origin and key');
  assert.is(await availableOf(app.db, b.accountId), 1_000);
  const different = await post(a.key, { ...body, amount: 2_000 });
  assert.is(different.status, 409);
  assert.is(different.body.error.param, 'idempotence_key');
  const concurrent = await Promise.all(Array.from({ length: 5 }, () => post(a.key, { ...body, idempotence_key: 'invoice-8' })));
  assert.equal(concurrent.map((r) => r.status), [201, 201, 201, 201, 201]);
  assert.is(new Set(concurrent.map((r) => r.body.id)).size, 1, 'five concurrent requests made one transfer');
  assert.is(await availableOf(app.db, b.accountId), 2_000);
});

t('concurrent transfers against one balance never overdraw it: exactly as many as it covers succeed', async () => {
  const a = await makeBusiness(app, 5 * 1_010);
  const b = await makeBusiness(app);
  const results = await Promise.all(Array.from({ length: 12 }, () =>
    post(a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 1_000 })));
  assert.is(results.filter((r) => r.status === 201).length, 5);
  assert.ok(results.filter((r) => r.status !== 201).every((r) => r.status === 400 && r.body.error.type === 'insufficient_funds'));
  assert.is(await availableOf(app.db, a.accountId), 0);
  assert.is(await availableOf(app.db, b.accountId), 5_000);
});

t('events: transfer.created reaches both account sides', async () => {
  const a = await makeBusiness(app, 10_000);
  const b = await makeBusiness(app);
  const x = await transfer(app, a.key, { type: 'balance', origin_id: a.accountId, destination_id: b.accountId, amount: 100 });
  const events = await app.db('events').where({ type: 'transfer.created' }).whereRaw("data->>'id' = ?", [x.id]).orderBy('account_id');
  assert.equal(events.map((e) => e.account_id).sort(), [a.accountId, b.accountId].sort());
  assert.is(events[0].data.amount.amount, 100);
});

t.run();
