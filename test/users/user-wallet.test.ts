// A user's personal wallet on the User resource: shown to the user only, read from the materialised balances; older
// pins see its earlier shapes (in_transit inside pending before 2026-08-07; total_usd and balances before 2026-07-22).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeUser } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { postEntry } from '../../handlers/ledger/post.js';
import { newId } from '../../runtime/ids.js';

const t = suite('users: the personal wallet');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** A wallet with $12.34 available, $1.00 on its way out and €5.00 available. */
async function walletUser(name: string) {
  const user = await makeUser(app.db, name);
  const ledger = await fundBalance(app.db, user.id, 1334);
  await postEntry(app.db, newId('le_'), 'usd', [{ ledger, bucket: 'available', amount: -100 }, { ledger, bucket: 'in_transit', amount: 100 }]);
  await fundBalance(app.db, user.id, 500, 'eur');
  return user;
}

t('the user sees their wallet: the USD breakdown and one per currency', async () => {
  const user = await walletUser('wallet_self');
  const res = await app.request('GET', `/users/${user.id}`, { token: user.token, version: headVersion() });
  assert.is(res.status, 200);
  const b = res.body.balance;
  assert.equal([b.available.amount, b.pending.amount, b.in_transit.amount, b.available.currency], [1234, 0, 100, 'usd']);
  assert.equal(b.currencies.map((c: any) => [c.currency, c.available.amount, c.in_transit.amount]), [['usd', 1234, 100], ['eur', 500, 0]]);
  assert.is(b.currencies[1].available.currency, 'eur');
});

t('a user without a wallet sees zero; anyone else sees null', async () => {
  const fresh = await makeUser(app.db, 'wallet_fresh');
  const own = await app.request('GET', `/users/${fresh.id}`, { token: fresh.token, version: headVersion() });
  assert.equal([own.body.balance.available.amount, own.body.balance.currencies.length], [0, 1]);
  const rich = await walletUser('wallet_other');
  const other = await app.request('GET', `/users/${rich.id}`, { token: fresh.token, version: headVersion() });
  assert.is(other.body.balance, null);
  const search = await app.request('GET', '/users', { token: rich.token, version: headVersion(), query: { query: 'wallet_' } });
  const rows = Object.fromEntries(search.body.data.map((u: any) => [u.username, u.balance]));
  assert.is(rows.wallet_fresh, null);
  assert.is(rows.wallet_other.available.amount, 1234);
});

t('#42 before 2026-08-07 funds in transit are inside pending', async () => {
  const user = await walletUser('wallet_42');
  const b = (await app.request('GET', `/users/${user.id}`, { token: user.token, version: '2026-07-30' })).body.balance;
  assert.equal([b.available.amount, b.pending.amount, 'in_transit' in b], [1234, 100, false]);
  assert.equal(b.currencies.map((c: any) => [c.currency, c.pending.amount, 'in_transit' in c]), [['usd', 100, false], ['eur', 0, false]]);
});

t('#57 before 2026-07-22 the wallet is total_usd and balances, as decimal strings', async () => {
  const user = await walletUser('wallet_57');
  const res = await app.request('GET', `/users/${user.id}`, { token: user.token, version: '2026-07-20' });
  assert.is(res.status, 200);
  assert.not.ok('balance' in res.body);
  assert.is(res.body.total_usd, '13.34');
  assert.equal(res.body.balances, [
    { symbol: 'USD', name: 'US Dollar', balance: '13.34', value_usd: '13.34', price_usd: 1, icon_url: null, breakdown: { available: '12.34', pending: '1.00' } },
    { symbol: 'EUR', name: 'Euro', balance: '5.00', value_usd: null, price_usd: null, icon_url: null, breakdown: { available: '5.00', pending: '0.00' } },
  ]);
  const other = await makeUser(app.db, 'wallet_57_other');
  const seen = await app.request('GET', `/users/${user.id}`, { token: other.token, version: '2026-07-20' });
  assert.equal([seen.body.total_usd, seen.body.balances, 'balance' in seen.body], [null, null, false]);
});

t.run();
