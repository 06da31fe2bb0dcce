// GET /ledger_accounts/{id}: a balance in every currency it holds, read from the materialised rows; an account's by
// its scopes, a personal wallet by its user only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { holdForKyc } from '../payouts/payout-fixtures.js';
import { ledgerOf, PLATFORM } from '../../handlers/ledger/ledgers.js';
import { postEntry } from '../../handlers/ledger/post.js';
import { newId } from '../../runtime/ids.js';

const t = suite('GET /ledger_accounts/{id}');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (id: string, token: string, version = headVersion()) => app.request('GET', `/ledger_accounts/${id}`, { token, version });

t('an account\'s balance: every currency, the buckets as money, and the account\'s payment controls', async () => {
  const o = await makeOwner(app.db);
  const ledger = await fundBalance(app.db, o.accountId, 2_500);
  await postEntry(app.db, newId('le_'), 'usd', [{ ledger, bucket: 'available', amount: -500 }, { ledger, bucket: 'in_transit', amount: 500 }]);
  await fundBalance(app.db, o.accountId, 1_000, 'eur');
  await holdForKyc(app, o);
  const res = await get(ledger, o.key);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.id, res.body.kind, res.body.account_id, res.body.user_id], [ledger, 'business', o.accountId, null]);
  assert.equal(res.body.balances.map((b: any) => [b.currency, b.available.amount, b.pending.amount, b.in_transit.amount]),
    [['usd', 2_000, 0, 500], ['eur', 1_000, 0, 0]]);
  assert.equal(res.body.payment_controls, { undated_pending_reason: 'kyc_incomplete' });
  // Before 2026-08-07 funds in transit were inside pending (#42).
  const old = await get(ledger, o.key, '2026-07-30');
  assert.equal(old.body.balances[0], { currency: 'usd', available: old.body.balances[0].available, pending: { ...old.body.balances[0].pending, amount: 500 } });
});

t('a balance with no postings reads as zero in USD', async () => {
  const o = await makeOwner(app.db);
  const ledger = await ledgerOf(app.db, o.accountId);
  const res = await get(ledger, o.key);
  assert.equal(res.body.balances.map((b: any) => [b.currency, b.available.amount]), [['usd', 0]]);
});

t('another account\'s balance is 404; a role without company:balance:read is 403', async () => {
  const o = await makeOwner(app.db);
  const ledger = await ledgerOf(app.db, o.accountId);
  const stranger = await makeOwner(app.db);
  const hidden = await get(ledger, stranger.key);
  assert.equal([hidden.status, hidden.body.error.type, hidden.body.error.message], [404, 'not_found', `No such balance: '${ledger}'`]);
  const sales = await makeKey(app.db, { accountId: o.accountId, role: 'sales_manager' });
  const refused = await get(ledger, sales.secret);
  assert.equal([refused.status, refused.body.error.type], [403, 'permission_denied']);
  assert.match(refused.body.error.message, 'company:balance:read');
  assert.is((await get('ldgr_nothing', o.key)).status, 404);
});

t('a personal wallet: its user reads it; other users, API keys and the platform\'s own ledger are 404', async () => {
  const alice = await makeUser(app.db);
  const wallet = await fundBalance(app.db, alice.id, 750);
  const own = await get(wallet, alice.token);
  assert.is(own.status, 200, JSON.stringify(own.body));
  assert.equal([own.body.kind, own.body.account_id, own.body.user_id, own.body.payment_controls], ['personal', null, alice.id, null]);
  assert.is(own.body.balances[0].available.amount, 750);
  const bob = await makeUser(app.db);
  assert.is((await get(wallet, bob.token)).status, 404);
  const o = await makeOwner(app.db);
  assert.is((await get(wallet, o.key)).status, 404);
  assert.is((await get(await ledgerOf(app.db, PLATFORM), o.key)).status, 404);
});

t.run();
