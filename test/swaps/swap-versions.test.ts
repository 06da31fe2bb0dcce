// Entry 44 at an older pin (2026-07-30): a fiat amount is the repayment (the amount received in to_token), there is
// no to_amount; a stablecoin's amount is still the amount swapped. The latest version converts amount instead.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { bucketOf, owe, PIN, VERSION } from './swap-fixtures.js';

const t = suite('swaps at older versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const swap = (token: string, body: Record<string, unknown>, version = PIN) => app.request('POST', '/swaps', { token, version, body });

t('before 2026-08-07 a fiat amount is the repayment: exactly that much arrives in to_token', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 20_000);
  await owe(app.db, o.accountId, 5_000, 'eur');
  const older = await swap(o.key, { account_id: o.accountId, from_token: 'USD', to_token: 'EUR', amount: '20.00' });
  assert.is(older.status, 201, JSON.stringify(older.body));
  assert.equal([older.body.amount_in, older.body.amount_out, older.body.repaid_amount], ['21.60', '20.00', '20.00']);
  assert.is(await bucketOf(app.db, o.accountId, 'eur', 'pending'), -3_000);
  // The same body at the latest version converts 20.00 USD.
  const latest = await swap(o.key, { account_id: o.accountId, from_token: 'USD', to_token: 'EUR', amount: '20.00' }, VERSION);
  assert.equal([latest.body.amount_in, latest.body.amount_out, latest.body.repaid_amount], ['20.00', '18.51', '18.51']);
  // Omitting amount repays what is left, at either version.
  const rest = await swap(o.key, { account_id: o.accountId, from_token: 'USD', to_token: 'EUR' });
  assert.equal([rest.status, rest.body.amount_out], [201, '11.49']);
  assert.is(await bucketOf(app.db, o.accountId, 'eur', 'pending'), 0);
});

t('before 2026-08-07 a stablecoin amount is the amount swapped, and to_amount is not taken', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 10_000);
  const usdc = await swap(o.key, { from_token: 'USDC', to_token: 'EUR', amount: '20.00' });
  assert.equal([usdc.status, usdc.body.amount_in, usdc.body.amount_out], [201, '20.00', '18.51']);
  const refused = await swap(o.key, { from_token: 'USD', to_token: 'EUR', to_amount: '5.00' });
  assert.equal([refused.status, refused.body.error.param], [400, 'to_amount']);
  const quoted = await app.request('POST', '/swaps/quote', { token: o.key, version: PIN, body: { from_token: 'usd', to_token: 'eur', to_amount: '5' } });
  assert.equal([quoted.status, quoted.body.error.param], [400, 'to_amount']);
  const quote = await app.request('POST', '/swaps/quote', { token: o.key, version: PIN, body: { from_token: 'usd', to_token: 'eur', amount: '100' } });
  assert.equal([quote.status, quote.body.amount_out], [200, '92.59']);
  const listed = await app.request('GET', '/swaps', { token: o.key, version: PIN });
  assert.equal(listed.body.data.map((s: any) => s.id), [usdc.body.id]);
});

t.run();
