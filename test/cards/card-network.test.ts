// The sandbox card network: authorisations approved within the cards balance (held), declined beyond it or on a
// frozen or canceled card (recorded, nothing moves), then settled or reversed in the background, each step posting
// exactly its amount and recording its event; re-run steps do nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { ledgerOf, PLATFORM } from '../../handlers/ledger/ledgers.js';
import { CARD_NETWORK_STEP, REVERSING_MERCHANT, stepCardTransaction } from '../../sandbox/card_network/index.js';
import { authorizePurchase, balanceOf, cardOwner, requestCard, VERSION } from './card-fixtures.js';

const t = suite('cards: the sandbox card network');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const eventsOf = async (db: TestApp['db'], id: string) =>
  (await db('events').whereRaw("data->>'id' = ?", [id]).orderBy('created_at').select('type')).map((e) => e.type);

t('an approved purchase holds its amount; settlement sends exactly that amount to the card network', async () => {
  const o = await cardOwner(app, { cards: 10_000 });
  const platform = await ledgerOf(app.db, PLATFORM);
  const clearingBefore = await balanceOf(app, platform, 'card_clearing');
  const res = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1_234, merchant_name: 'Coffee Shop', merchant_category: 'restaurants' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const tx = res.body;
  assert.match(tx.id, /^citx_/);
  assert.equal([tx.object, tx.status, tx.card_id, tx.cardholder_id, tx.account_id, tx.amount.amount, tx.currency, tx.merchant_name, tx.decline_reason],
    ['card_transaction', 'pending', o.card.id, o.card.cardholder_id, o.accountId, 1_234, 'usd', 'Coffee Shop', null]);
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [8_766, 1_234]);
  const job = await app.db('graphile_worker.jobs').where({ key: `${CARD_NETWORK_STEP}:${tx.id}` }).first();
  assert.ok(job, 'settlement is queued');
  assert.is(await stepCardTransaction(app.db, tx.id), 'settled');
  assert.is(await stepCardTransaction(app.db, tx.id), null, 'a re-run step does nothing');
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [8_766, 0]);
  assert.is(await balanceOf(app, platform, 'card_clearing') - clearingBefore, 1_234);
  const shown = await app.request('GET', `/card_transactions/${tx.id}`, { token: o.key, version: VERSION });
  assert.equal([shown.body.status, shown.body.reversed_at], ['settled', null]);
  assert.ok(Date.parse(shown.body.settled_at) > 0);
  assert.equal(await eventsOf(app.db, tx.id), ['card_transaction.created', 'card_transaction.settled']);
  const postings = await app.db('ledger_postings').where('entry_id', 'like', `${tx.id}:%`).orderBy('entry_id');
  assert.equal([...new Set(postings.map((p) => p.entry_id))], [`${tx.id}:authorized`, `${tx.id}:settled`]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t(`the test merchant "${REVERSING_MERCHANT}" reverses: the held amount is available again, exactly`, async () => {
  const o = await cardOwner(app, { cards: 5_000 });
  const res = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 4_000, merchant_name: REVERSING_MERCHANT.toUpperCase() });
  assert.is(res.body.status, 'pending');
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [1_000, 4_000]);
  assert.is(await stepCardTransaction(app.db, res.body.id), 'reversed');
  assert.is(await stepCardTransaction(app.db, res.body.id), null);
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [5_000, 0]);
  const row = await app.db('card_transactions').where({ id: res.body.id }).first();
  assert.ok(row.reversed_at && !row.settled_at);
  assert.equal(await eventsOf(app.db, res.body.id), ['card_transaction.created', 'card_transaction.reversed']);
});

t('beyond the cards balance: declined insufficient_funds, recorded, nothing moves, nothing queued', async () => {
  const o = await cardOwner(app, { cards: 1_000 });
  const res = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1_001 });
  assert.equal([res.status, res.body.status, res.body.decline_reason], [201, 'declined', 'insufficient_funds']);
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [1_000, 0]);
  assert.is((await app.db('ledger_postings').where('entry_id', 'like', `${res.body.id}:%`)).length, 0);
  assert.not.ok(await app.db('graphile_worker.jobs').where({ key: `${CARD_NETWORK_STEP}:${res.body.id}` }).first());
  assert.is(await stepCardTransaction(app.db, res.body.id), null);
  assert.equal(await eventsOf(app.db, res.body.id), ['card_transaction.created']);
  const exact = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1_000 });
  assert.is(exact.body.status, 'pending', 'the whole balance may be spent');
  const more = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1 });
  assert.equal([more.body.status, more.body.decline_reason], ['declined', 'insufficient_funds'], 'held money is not spendable');
});

t('a card without any cards balance money declines; a frozen card declines; a canceled card declines', async () => {
  const o = await cardOwner(app, { cards: 0 });
  const empty = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1 });
  assert.equal([empty.body.status, empty.body.decline_reason], ['declined', 'insufficient_funds']);
  const funded = await cardOwner(app, { cards: 5_000 });
  await app.request('PATCH', `/cards/${funded.card.id}`, { token: funded.key, version: VERSION, body: { frozen: true } });
  const frozen = await authorizePurchase(app, funded.key, { card_id: funded.card.id, amount: 100 });
  assert.equal([frozen.body.status, frozen.body.decline_reason], ['declined', 'card_frozen']);
  assert.is(await balanceOf(app, funded.cardsLedger), 5_000);
  await app.request('PATCH', `/cards/${funded.card.id}`, { token: funded.key, version: VERSION, body: { frozen: false } });
  assert.is((await authorizePurchase(app, funded.key, { card_id: funded.card.id, amount: 100 })).body.status, 'pending');
  await app.request('PATCH', `/cards/${funded.card.id}`, { token: funded.key, version: VERSION, body: { canceled: true } });
  const canceled = await authorizePurchase(app, funded.key, { card_id: funded.card.id, amount: 100 });
  assert.equal([canceled.body.status, canceled.body.decline_reason], ['declined', 'card_canceled']);
  assert.equal([await balanceOf(app, funded.cardsLedger), await balanceOf(app, funded.cardsLedger, 'held')], [4_900, 100]);
});

t('concurrent authorisations never overspend: 10 of 100 against 500, exactly 5 approved', async () => {
  const o = await cardOwner(app, { cards: 500 });
  const results = await Promise.all(Array.from({ length: 10 }, () => authorizePurchase(app, o.key, { card_id: o.card.id, amount: 100 })));
  assert.ok(results.every((r) => r.status === 201));
  assert.is(results.filter((r) => r.body.status === 'pending').length, 5);
  assert.equal([await balanceOf(app, o.cardsLedger), await balanceOf(app, o.cardsLedger, 'held')], [0, 500]);
});

t('another account\'s card is 404; bad input is a 400 naming the field', async () => {
  const a = await makeOwner(app.db);
  const b = await cardOwner(app);
  const other = await authorizePurchase(app, a.key, { card_id: b.card.id, amount: 100 });
  assert.is(other.status, 404);
  const unknown = await authorizePurchase(app, a.key, { card_id: 'icrd_nope', amount: 100 });
  assert.is(unknown.status, 404);
  const mine = await requestCard(app, a.key, { account_id: a.accountId });
  for (const [body, param] of [[{ amount: 0 }, 'amount'], [{ amount: 'ten' }, 'amount'], [{ merchant_name: '' }, 'merchant_name'],
    [{ currency: 'eur' }, 'currency'], [{ card_id: 'ichd_x' }, 'card_id']] as const) {
    const res = await authorizePurchase(app, a.key, { card_id: mine.id, amount: 100, ...body });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(body));
  }
  assert.is((await app.db('card_transactions').where({ account_id: a.accountId })).length, 0);
});

t('cards_notifications: the cardholder hears of purchases while it is on, not after it is turned off; onboarding always', async () => {
  const o = await cardOwner(app, { cards: 5_000 });
  const notes = async () => (await app.db('notifications').where({ user_id: o.owner.id }).orderBy('created_at').select('type', 'data'))
    .map((n) => [n.type, n.data.status ?? null]);
  assert.equal(await notes(), [['cardholder_onboarding', null]]);
  await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 100 });
  await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 100_000 });
  assert.equal(await notes(), [['cardholder_onboarding', null], ['card_transaction', 'pending'], ['card_transaction', 'declined']]);
  await app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, version: VERSION, body: { cards_notifications: false } });
  const quiet = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 100 });
  assert.is(quiet.body.status, 'pending', 'cards keep working');
  assert.is((await notes()).length, 3);
});

t('the worker settles an authorisation in the background', async () => {
  const worker = await startTestApp({ worker: true });
  const previous = process.env.CARD_NETWORK_SECONDS;
  process.env.CARD_NETWORK_SECONDS = '0';
  try {
    const o = await cardOwner(worker, { cards: 2_000 });
    const res = await authorizePurchase(worker, o.key, { card_id: o.card.id, amount: 700 });
    await until(async () => (await worker.db('card_transactions').where({ id: res.body.id }).first()).status === 'settled',
      'the card network to settle', { timeoutMs: 20_000 });
    assert.equal([await balanceOf(worker, o.cardsLedger), await balanceOf(worker, o.cardsLedger, 'held')], [1_300, 0]);
  } finally {
    if (previous === undefined) delete process.env.CARD_NETWORK_SECONDS;
    else process.env.CARD_NETWORK_SECONDS = previous;
    await worker.close();
  }
});

t.run();
