// client.transfers through the official client at its default pin (2026-07-20): the older shapes of entry 3.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeBusiness, makeWalletUser } from '../transfers/transfer-fixtures.js';
import { availableOf } from '../transfers/ledger-fixtures.js';
import { LATEST, collectAll, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: transfers');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('transfers.create without type moves decimal dollars; retrieve and list read it back in the client\'s shape', async () => {
  const shop = await makeBusiness(app, 100_000, 'SDK Sender');
  const other = await makeBusiness(app, 0, 'SDK Receiver');
  const client = sdk(app, shop.key);
  const created = raw(await client.transfers.create({ amount: 12.34, origin_id: shop.accountId, destination_id: other.accountId, notes: 'sdk', 'Idempotency-Key': 'sdk-transfer-1' }));
  assert.is(created.amount, 12.34);
  assert.is(created.fee_amount, 0.12);
  assert.is(created.currency, 'usd');
  assert.is(created.origin.typename, 'Company');
  assert.is(created.destination.title, 'SDK Receiver');
  const replay = raw(await client.transfers.create({ amount: 12.34, origin_id: shop.accountId, destination_id: other.accountId, notes: 'sdk', 'Idempotency-Key': 'sdk-transfer-1' }));
  assert.is(replay.id, created.id);
  assert.is(await availableOf(app.db, other.accountId), 1_234);
  const fetched = await client.transfers.retrieve(created.id);
  assert.is(fetched.id, created.id);
  assert.is(fetched.amount, 12.34);
  assert.is(fetched.origin_ledger_account_id, created.origin_ledger_account_id);
  const all = await collectAll(client.transfers.list({ origin_id: shop.accountId, first: 1 }));
  assert.equal(all.map((x) => x.id), [created.id]);
});

t('transfers.create type claim_link answers the ClaimLink variant; type ledger a Transfer', async () => {
  const shop = await makeBusiness(app, 100_000);
  const bob = await makeWalletUser(app);
  const client = sdk(app, shop.key);
  const link = raw(await client.transfers.create({ type: 'claim_link', amount: 5, origin_id: shop.accountId, redeemable_count: 3 }));
  assert.is(link.object, 'claim_link');
  assert.is(link.amount, '5.00');
  assert.is(link.redeemable_count, 3);
  assert.match(link.claim_url, /\/claim\//);
  const ledger = raw(await client.transfers.create({ type: 'ledger', amount: 1, origin_id: shop.accountId, destination_id: bob.id }));
  assert.is(ledger.destination.typename, 'User');
});

t('errors reach the client as its error classes: insufficient funds 400, an invisible transfer 404', async () => {
  const shop = await makeBusiness(app, 100);
  const other = await makeBusiness(app);
  const client = sdk(app, shop.key);
  const poor = await rejects(client.transfers.create({ amount: 5, origin_id: shop.accountId, destination_id: other.accountId }), BadRequestError, 400);
  assert.is(raw(poor.error).error.type, 'insufficient_funds');
  await rejects(client.transfers.retrieve('xfer_unknown'), NotFoundError, 404);
  const latest = sdk(app, shop.key, { version: LATEST });
  const untyped = await rejects(latest.transfers.create({ amount: 1, origin_id: shop.accountId, destination_id: other.accountId }), BadRequestError, 400);
  assert.is(raw(untyped.error).error.param, 'type');
});

t.run();
