// client.deposits and client.swaps through the official client at its default pin (2026-07-20): the older shapes of
// entries 32 (object destination, metadata answered empty) and 44 (a fiat amount is the repayment).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { owe, bucketOf } from '../swaps/swap-fixtures.js';
import { LATEST, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: deposits and swaps');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('deposits.create takes the object destination at the client\'s pin and answers every network, metadata empty', async () => {
  const o = await makeOwner(app.db);
  const client = sdk(app, o.key);
  const d = raw(await client.deposits.create({ destination: { account_id: o.accountId }, metadata: { order: '7' } }));
  assert.equal([d.object, d.account_id, d.metadata, d.methods.bank], ['deposit', o.accountId, {}, null]);
  assert.is(d.methods.crypto.length, 4);
  const one = raw(await client.deposits.create({ destination: o.accountId, network: 'solana' }));
  assert.equal(one.methods.crypto.map((m: any) => m.address), [d.methods.crypto.find((m: any) => m.network === 'solana').address]);
  const refused = await rejects(client.deposits.create({ destination: { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'ethereum' } }), BadRequestError, 400);
  assert.is(raw(refused.error).error.param, 'destination');
  const latest = raw(await sdk(app, o.key, { version: LATEST }).deposits.create({ destination: o.accountId }));
  assert.is('metadata' in latest, false);
});

t('swaps: a fiat amount repays at the client\'s pin; quote, list and retrieve read back', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 10_000);
  await owe(app.db, o.accountId, 2_000, 'eur');
  const client = sdk(app, o.key);
  const quote = await client.swaps.createQuote({ amount: '100', from_token: 'USD', to_token: 'EUR' });
  assert.equal([quote.object, quote.amount_out, quote.rate], ['swap_quote', '92.59', '0.92592593']);
  const swap = raw(await client.swaps.create({ account_id: o.accountId, amount: '20.00', from_token: 'USD', to_token: 'EUR' }));
  assert.equal([swap.object, swap.status, swap.amount_in, swap.amount_out, swap.repaid_amount], ['swap', 'completed', '21.60', '20.00', '20.00']);
  assert.is(await bucketOf(app.db, o.accountId, 'eur', 'pending'), 0);
  const fetched = await client.swaps.retrieve(swap.id);
  assert.equal([fetched.id, fetched.status, fetched.tx_hashes, fetched.error], [swap.id, 'completed', [], null]);
  const listed = await client.swaps.list({ account_id: o.accountId });
  assert.equal(listed.data.map((s) => s.id), [swap.id]);
});

t.run();
