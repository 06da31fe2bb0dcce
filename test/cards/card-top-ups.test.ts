// The cards balance: explicit top-ups from the business balance (POST /card_top_ups) and cards_auto_top_up, which
// sends cleared payment funds there instead of the business balance.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { clearDueFunds } from '../../handlers/ledger/clearing.js';
import { makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { balanceOf, businessLedger, cardsLedger, requestCard, topUp, VERSION } from './card-fixtures.js';

const t = suite('cards: top-ups');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a top-up moves the amount from the business balance to the cards balance, exactly, with an event', async () => {
  const o = await makeOwner(app.db);
  const business = await fundBalance(app.db, o.accountId, 10_000);
  const top = await topUp(app, o.key, o.accountId, 2_550);
  assert.match(top.id, /^ctop_/);
  assert.equal([top.object, top.source, top.payment_id, top.amount.amount, top.amount.currency], ['card_top_up', 'balance', null, 2_550, 'usd']);
  const cards = await cardsLedger(app, o.accountId);
  assert.equal([await balanceOf(app, business), await balanceOf(app, cards)], [7_450, 2_550]);
  const shown = await app.request('GET', `/ledger_accounts/${cards}`, { token: o.key, version: VERSION });
  assert.equal([shown.status, shown.body.kind, shown.body.account_id], [200, 'cards', o.accountId]);
  assert.is((await app.db('events').where({ type: 'card_top_up.created' }).whereRaw("data->>'id' = ?", [top.id])).length, 1);
  // The account's financial report (over all its balances) shows the top-up as a row of its own that moves nothing
  // in total: counted once per balance it moved.
  const window = { account_id: o.accountId, from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
  const financial = await app.request('GET', '/financial_reports', { token: o.key, version: VERSION, query: window });
  assert.is(financial.status, 200, JSON.stringify(financial.body));
  const topUpRow = financial.body.currencies[0].rows.find((r: any) => r.type === 'card_top_up');
  assert.equal([topUpRow?.count, topUpRow?.net.amount, topUpRow?.available.amount], [2, 0, 0], JSON.stringify(financial.body));
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('a top-up the business balance cannot cover is 400 insufficient_funds and writes nothing', async () => {
  const o = await makeOwner(app.db);
  const business = await fundBalance(app.db, o.accountId, 1_000);
  const res = await app.request('POST', '/card_top_ups', { token: o.key, version: VERSION, body: { account_id: o.accountId, amount: 1_001 } });
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'insufficient_funds', 'amount']);
  assert.is(await balanceOf(app, business), 1_000);
  assert.is((await app.db('card_top_ups').where({ account_id: o.accountId })).length, 0);
  assert.is(await cardsLedger(app, o.accountId), undefined, 'the cards balance opened with it was taken back too');
});

t('bad input and another account: 400 naming the field, 404', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  for (const [body, param] of [[{ amount: 0 }, 'amount'], [{ amount: 1.5 }, 'amount'], [{ amount: 5, currency: 'eur' }, 'currency'], [{}, 'amount']] as const) {
    const res = await app.request('POST', '/card_top_ups', { token: a.key, version: VERSION, body: { account_id: a.accountId, ...body } });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(body));
  }
  const other = await app.request('POST', '/card_top_ups', { token: a.key, version: VERSION, body: { account_id: b.accountId, amount: 5 } });
  assert.is(other.status, 404);
});

t('with cards_auto_top_up on, cleared payment funds land on the cards balance, recorded as an auto top-up', async () => {
  const s = await makeSeller(app.db);
  const noBalance = await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { cards_auto_top_up: true } });
  assert.equal([noBalance.status, noBalance.body.error?.param], [400, 'cards_auto_top_up'], 'needs a cards balance first');
  await requestCard(app, s.key, { account_id: s.accountId });
  const on = await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { cards_auto_top_up: true } });
  assert.equal([on.status, on.body.cards_auto_top_up], [200, true], JSON.stringify(on.body));
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'US' });
  const business = await businessLedger(app, s.accountId);
  const net = await balanceOf(app, business, 'pending');
  assert.ok(net > 0);
  await app.db('payments').where({ id }).update({ settlement_time_at: app.db.raw("settlement_time_at - interval '3 days'") }); // sql-state-write: the case runs the real-time clearing sweep (clearDueFunds), which skips clocked accounts, so real time must have passed the clearing period
  await clearDueFunds(app.db);
  const cards = await cardsLedger(app, s.accountId);
  assert.equal([await balanceOf(app, business, 'pending'), await balanceOf(app, business), await balanceOf(app, cards)], [0, 0, net]);
  const top = await app.db('card_top_ups').where({ account_id: s.accountId }).first();
  assert.equal([top.source, top.payment_id, Number(top.amount)], ['auto', id, net]);

  // Turned off, the next payment's funds stay on the business balance.
  await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { cards_auto_top_up: false } });
  const second = await pay(app, s, { plan_id: v.id, country: 'US' });
  await app.db('payments').where({ id: second.id }).update({ settlement_time_at: app.db.raw("settlement_time_at - interval '3 days'") }); // sql-state-write: the case runs the real-time clearing sweep (clearDueFunds), which skips clocked accounts, so real time must have passed the clearing period
  await clearDueFunds(app.db);
  assert.equal([await balanceOf(app, business), await balanceOf(app, cards)], [net, net]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t.run();
