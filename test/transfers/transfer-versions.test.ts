// Changelog entry 3 over HTTP: before 2026-09-06 transfers took ledger, wallet_send or no type (a balance transfer)
// and decimal amounts, and answered with decimal money, Company/User sides and a separate claim_link object.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { availableOf, claim, codeOf, makeBusiness, makeWalletUser, PIN, transfer, VERSION } from './transfer-fixtures.js';

const t = suite('transfers: versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const BEFORE = '2026-09-02';

t('an omitted type, ledger and wallet_send each make a balance transfer at older pins; decimal amounts convert exactly', async () => {
  const shop = await makeBusiness(app, 100_000, 'Old Shop');
  const bob = await makeWalletUser(app, 0, 'Bob');
  for (const [version, type] of [[PIN, undefined], [PIN, 'ledger'], [BEFORE, 'wallet_send'], ['2025-01-01', undefined]] as const) {
    const x = await transfer(app, shop.key, { origin_id: shop.accountId, destination_id: bob.id, amount: 10.43, ...(type ? { type } : {}) }, { version });
    assert.is(x.amount, 10.43, `${version} ${type}`);
    assert.is(x.fee_amount, 0.1);
    assert.is(x.currency, 'usd');
    const stored = await app.db('transfers').where({ id: x.id }).first();
    assert.is(stored.type, 'balance');
    assert.is(Number(stored.amount), 1_043);
  }
  assert.is(await availableOf(app.db, bob.id), 4 * 1_043);
});

t('the older transfer shape: decimal amount and fee_amount, Company and User sides, ledger account ids', async () => {
  const shop = await makeBusiness(app, 100_000, 'Old Shop');
  const bob = await makeWalletUser(app, 0, 'Bob Old');
  const x = await transfer(app, shop.key, { origin_id: shop.accountId, destination_id: bob.id, amount: 25, notes: 'n', metadata: { k: 'v' } }, { version: PIN });
  const route = (await app.db('accounts').where({ id: shop.accountId }).first('route')).route;
  assert.equal(Object.keys(x).sort(), ['amount', 'created_at', 'currency', 'destination', 'destination_ledger_account_id', 'fee_amount', 'id',
    'metadata', 'notes', 'origin', 'origin_ledger_account_id']);
  assert.equal(x.origin, { id: shop.accountId, typename: 'Company', route, title: 'Old Shop' });
  assert.equal(x.destination, { id: bob.id, typename: 'User', name: 'Bob Old', username: bob.user.username });
  assert.is(x.amount, 25);
  assert.is(x.fee_amount, 0.25);
  const head = await app.request('GET', `/transfers/${x.id}`, { token: shop.key, version: VERSION });
  assert.equal(head.body.amount, { amount: 2_500, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.is(head.body.type, 'balance');
  const old = await app.request('GET', `/transfers/${x.id}`, { token: shop.key, version: PIN });
  assert.equal(old.body, x, 'retrieve answers the same older shape');
  const listed = await app.request('GET', '/transfers', { token: shop.key, version: PIN });
  assert.equal(listed.body.data[0], x);
});

t('an older claim link is an object claim_link with a decimal-string amount, claim_url, redeemable_count, source and status', async () => {
  const shop = await makeBusiness(app, 100_000, 'Link Shop');
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 12.5, redeemable_count: 2 }, { version: PIN });
  assert.equal(Object.keys(link).sort(), ['amount', 'claim_url', 'currency', 'expires_at', 'id', 'object', 'redeemable_count', 'source', 'status']);
  assert.is(link.object, 'claim_link');
  assert.is(link.amount, '12.50');
  assert.is(link.currency, 'usd');
  assert.is(link.redeemable_count, 2);
  assert.is(link.status, 'pending');
  assert.is(link.source.typename, 'Company');
  assert.is(link.source.title, 'Link Shop');
  const ann = await makeWalletUser(app);
  assert.is((await claim(app, ann.token, link.id, codeOf(link))).status, 200, 'claimed with the code of its claim_url');
  assert.is(await availableOf(app.db, ann.id), 1_250);
});

t('older request shapes are refused at the latest version and the newer ones at older pins', async () => {
  const shop = await makeBusiness(app, 100_000);
  const other = await makeBusiness(app);
  const post = (version: string, body: Record<string, unknown>) => app.request('POST', '/transfers', { token: shop.key, version, body });
  const base = { origin_id: shop.accountId, destination_id: other.accountId };
  const missing = await post(VERSION, { ...base, amount: 100 });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'type');
  assert.match(missing.body.error.message, /type/);
  assert.is((await post(VERSION, { ...base, type: 'ledger', amount: 100 })).body.error.param, 'type');
  assert.is((await post(VERSION, { ...base, type: 'balance', amount: 1.5 })).body.error.param, 'amount');
  const newWord = await post(PIN, { ...base, type: 'balance', amount: 1 });
  assert.is(newWord.status, 400, 'balance is not a type before 2026-09-06');
  assert.is(newWord.body.error.param, 'type');
  const tooPrecise = await post(PIN, { ...base, amount: 1.005 });
  assert.is(tooPrecise.status, 400);
  assert.is(tooPrecise.body.error.param, 'amount');
  const notEnough = await post(PIN, { ...base, amount: 5_000 });
  assert.is(notEnough.status, 400);
  assert.is(notEnough.body.error.type, 'insufficient_funds');
  assert.is(notEnough.body.error.param, 'amount');
});

t('webhook deliveries render transfer events at the subscription\'s pin: the older shape for 2026-07-20', async () => {
  const receiver = await startReceiver();
  try {
    const shop = await makeBusiness(app, 100_000);
    const other = await makeBusiness(app);
    const subscribe = async (pin: string) => {
      const res = await app.request('POST', '/webhooks', {
        token: shop.key, version: VERSION, body: { account_id: shop.accountId, url: receiver.url, events: ['transfer.created'], api_version_date: pin },
      });
      assert.is(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const old = await subscribe(PIN);
    const head = await subscribe(VERSION);
    const x = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: other.accountId, amount: 999 });
    for (const id of await app.db('events').whereNull('dispatched_at').pluck('id')) await dispatchEvent(app.db, id);
    for (const id of await app.db('webhook_deliveries').whereIn('webhook_id', [old, head]).where({ status: 'pending' }).pluck('id')) await deliverWebhook(app.db, id);
    const bodyFor = async (hook: string) => {
      const delivery = await app.db('webhook_deliveries').where({ webhook_id: hook }).first();
      return receiver.received.find((r) => r.id === delivery.id)!.json;
    };
    const older = await bodyFor(old);
    assert.is(older.type, 'transfer.created');
    assert.is(older.data.id, x.id);
    assert.is(older.data.amount, 9.99);
    assert.is(older.data.origin.typename, 'Company');
    const newest = await bodyFor(head);
    assert.equal(newest.data.amount, { amount: 999, currency: 'usd', decimals: 2, display_decimals: 2 });
    assert.is(newest.data.type, 'balance');
  } finally {
    await receiver.close();
  }
});

t.run();
