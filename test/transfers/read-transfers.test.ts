// GET /transfers and GET /transfers/{id}: what each caller sees, filters, orders and pages.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount } from '../helpers/fixtures.js';
import { claim, codeOf, keyWithRole, makeBusiness, makeWalletUser, transfer, VERSION } from './transfer-fixtures.js';
import { fundSide } from './ledger-fixtures.js';

const t = suite('transfers: reads');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const list = (token: string, query: Record<string, string | number | undefined> = {}) =>
  app.request('GET', '/transfers', { token, version: VERSION, query });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

t('without filters: every transfer touching the caller\'s readable accounts, connected accounts and own wallet', async () => {
  const shop = await makeBusiness(app, 50_000);
  const child = await makeAccount(app.db, { parentId: shop.accountId });
  await fundSide(app.db, child.id, 10_000);
  const other = await makeBusiness(app, 10_000);
  const owner = shop.owner;
  await fundSide(app.db, owner.id, 10_000);
  const a = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: other.accountId, amount: 100 });
  const b = await transfer(app, other.key, { type: 'balance', origin_id: other.accountId, destination_id: shop.accountId, amount: 200 });
  const c = await transfer(app, shop.key, { type: 'balance', origin_id: child.id, destination_id: other.accountId, amount: 300 });
  const d = await transfer(app, owner.token, { type: 'balance', origin_id: owner.id, destination_id: other.accountId, amount: 400 });
  const e = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: child.id, amount: 500 });
  const unrelated = await transfer(app, other.key, { type: 'balance', origin_id: other.accountId, destination_id: (await makeBusiness(app)).accountId, amount: 1 });

  const byKey = await list(shop.key, { first: 50 });
  assert.is(byKey.status, 200);
  assert.equal(ids(byKey), [e.id, c.id, b.id, a.id], 'the key sees its account and connected account, newest first, once each; not the owner\'s wallet');
  const byToken = await list(owner.token, { first: 50 });
  assert.equal(ids(byToken), [e.id, d.id, c.id, b.id, a.id], 'the owner\'s token adds their own wallet');
  assert.ok(!ids(await list(other.key, { first: 50 })).includes(e.id));
  assert.ok(ids(await list(other.key, { first: 50 })).includes(unrelated.id));
  const stranger = await makeWalletUser(app);
  assert.equal(ids(await list(stranger.token)), [], 'a user with no accounts and no transfers sees none');
});

t('origin_id and destination_id narrow to one side; a side the caller cannot see is a 404, one without the scope a 403', async () => {
  const shop = await makeBusiness(app, 50_000);
  const other = await makeBusiness(app, 10_000);
  const out = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: other.accountId, amount: 100 });
  const back = await transfer(app, other.key, { type: 'balance', origin_id: other.accountId, destination_id: shop.accountId, amount: 50 });
  assert.equal(ids(await list(shop.key, { origin_id: shop.accountId })), [out.id]);
  assert.equal(ids(await list(shop.key, { destination_id: shop.accountId })), [back.id]);
  assert.equal(ids(await list(shop.key, { destination_id: shop.accountId, origin_id: other.accountId })), [back.id],
    'the other side may be one the caller cannot see when its own side is named too');
  const hidden = await list(shop.key, { origin_id: (await makeBusiness(app)).accountId });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'origin_id');
  const wallet = await list(shop.key, { destination_id: shop.owner.id });
  assert.is(wallet.status, 404, 'an API key cannot read a wallet');
  assert.is(wallet.body.error.param, 'destination_id');
  const limited = await keyWithRole(app.db, shop.accountId, 'sales_manager');
  assert.is((await list(limited, { origin_id: shop.accountId })).status, 403);
  assert.is((await list(limited)).status, 403, 'a key without payout:account:read lists nothing');
  const adminKey = await keyWithRole(app.db, shop.accountId, 'admin');
  assert.is((await list(adminKey)).status, 200, 'a role holding payout:account:read reads transfers');
});

t('created_after / created_before are ISO 8601 bounds; order by amount; direction; pages with cursors both ways', async () => {
  const shop = await makeBusiness(app, 100_000);
  const other = await makeBusiness(app);
  const made = [];
  for (const amount of [300, 100, 500, 200, 400]) {
    made.push(await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: other.accountId, amount }));
  }
  const newestFirst = [...made].reverse().map((x) => x.id);
  assert.equal(ids(await list(shop.key, { first: 10 })), newestFirst);
  assert.equal(ids(await list(shop.key, { created_after: made[1].created_at, created_before: made[4].created_at })), [made[3].id, made[2].id]);
  const bad = await list(shop.key, { created_after: '1700000000' });
  assert.is(bad.status, 400, 'epoch seconds are not ISO 8601');
  assert.is(bad.body.error.param, 'created_after');
  const byAmount = await list(shop.key, { order: 'amount', direction: 'asc' });
  assert.equal(byAmount.body.data.map((x: any) => x.amount.amount), [100, 200, 300, 400, 500]);
  const page1 = await list(shop.key, { first: 2, order: 'amount' });
  assert.equal(page1.body.data.map((x: any) => x.amount.amount), [500, 400]);
  assert.is(page1.body.page_info.has_next_page, true);
  const page2 = await list(shop.key, { first: 2, order: 'amount', after: page1.body.page_info.end_cursor });
  assert.equal(page2.body.data.map((x: any) => x.amount.amount), [300, 200]);
  const page3 = await list(shop.key, { first: 2, order: 'amount', after: page2.body.page_info.end_cursor });
  assert.equal(page3.body.data.map((x: any) => x.amount.amount), [100]);
  assert.is(page3.body.page_info.has_next_page, false);
  const back = await list(shop.key, { last: 2, order: 'amount', before: page3.body.page_info.start_cursor });
  assert.equal(back.body.data.map((x: any) => x.amount.amount), [300, 200]);
  const wrongCursor = await list(shop.key, { first: 2, after: page1.body.page_info.end_cursor });
  assert.is(wrongCursor.status, 400, 'an amount cursor does not page the created_at order');
  assert.is(wrongCursor.body.error.param, 'after');
  const tooMany = await list(shop.key, { first: 101 });
  assert.is(tooMany.status, 400);
});

t('retrieve: either side reads it; claims show on the claimant\'s side; others get 404, accounts without the scope 403', async () => {
  const shop = await makeBusiness(app, 10_000);
  const ann = await makeWalletUser(app);
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 100 });
  const c = (await claim(app, ann.token, link.id, codeOf(link))).body;
  assert.is((await app.request('GET', `/transfers/${c.id}`, { token: shop.key, version: VERSION })).status, 200);
  assert.equal(ids(await list(ann.token)), [c.id]);
  assert.equal(ids(await list(shop.key)), [c.id, link.id], 'the origin sees the link and each claim of it');
  const stranger = await makeBusiness(app);
  assert.is((await app.request('GET', `/transfers/${c.id}`, { token: stranger.key, version: VERSION })).status, 404);
  assert.is((await app.request('GET', '/transfers/xfer_nothing', { token: shop.key, version: VERSION })).status, 404);
  const limited = await keyWithRole(app.db, shop.accountId, 'sales_manager');
  assert.is((await app.request('GET', `/transfers/${link.id}`, { token: limited, version: VERSION })).status, 403);
});

t.run();
