// Every side has one ledger, and the spendable buckets never go below zero: the database refuses the posting, so
// concurrent spenders cannot overdraw a balance between a check and a write.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeUser } from '../helpers/fixtures.js';
import { ledgerOf, PLATFORM } from '../../handlers/ledger/ledgers.js';
import { postEntry } from '../../handlers/ledger/post.js';
import { ApiError } from '../../runtime/errors.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { newId } from '../../runtime/ids.js';

const t = suite('ledger: one ledger per side, floors in the database');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const bucket = async (ledger: string, name: string, currency = 'usd') =>
  Number((await app.db('ledger_balances').where({ ledger_id: ledger, currency, bucket: name }).first('amount'))?.amount ?? 0);

/** Money arriving from outside: the processor owes it, the side may spend it. */
const fund = (ledger: string, amount: number, currency = 'usd') => postEntry(app.db, newId('le_'), currency, [
  { ledger, bucket: 'processor_clearing', amount: -amount }, { ledger, bucket: 'available', amount },
]);

t('an account, a user and the platform each have one ledger, made once however many ask at once', async () => {
  const account = await makeAccount(app.db);
  const user = await makeUser(app.db);
  for (const side of [account.id, user.id, PLATFORM]) {
    const ids = await Promise.all(Array.from({ length: 8 }, () => app.db.transaction((trx) => ledgerOf(trx, side))));
    assert.is(new Set(ids).size, 1, side);
    assert.match(ids[0], /^ldgr_/);
    assert.is(await ledgerOf(app.db, side), ids[0]);
  }
  const rows = await app.db('ledger_accounts').whereIn('account_id', [account.id]).orWhere({ user_id: user.id });
  assert.equal(rows.map((r) => r.kind).sort(), ['business', 'personal']);
  const err = await ledgerOf(app.db, 'prod_nothing').catch((e: Error) => e.message);
  assert.match(String(err), "no ledger side is named 'prod_nothing'");
});

t('spending more than is available is a 400 insufficient_funds naming the amount, and nothing moves', async () => {
  const from = await ledgerOf(app.db, (await makeAccount(app.db)).id);
  const to = await ledgerOf(app.db, (await makeUser(app.db)).id);
  await fund(from, 1_000);
  const spend = (amount: number) => app.db.transaction((trx) => postEntry(trx, newId('le_'), 'usd', [
    { ledger: from, bucket: 'available', amount: -amount }, { ledger: to, bucket: 'available', amount },
  ]));
  const refused = await spend(1_001).catch((e) => e);
  assert.ok(refused instanceof ApiError);
  assert.equal([refused.status, refused.type, refused.param], [400, 'insufficient_funds', 'amount']);
  assert.equal([await bucket(from, 'available'), await bucket(to, 'available')], [1_000, 0]);
  await spend(1_000);
  assert.equal([await bucket(from, 'available'), await bucket(to, 'available')], [0, 1_000]);
});

t('pending may go negative (a refund of money already paid out); in_transit and held may not', async () => {
  const ledger = await ledgerOf(app.db, (await makeAccount(app.db)).id);
  await postEntry(app.db, newId('le_'), 'usd', [{ ledger, bucket: 'pending', amount: -300 }, { ledger, bucket: 'processor_clearing', amount: 300 }]);
  assert.is(await bucket(ledger, 'pending'), -300);
  for (const b of ['in_transit', 'held'] as const) {
    const e = await postEntry(app.db, newId('le_'), 'usd', [{ ledger, bucket: b, amount: -1 }, { ledger, bucket: 'payout_clearing', amount: 1 }]).catch((x) => x);
    assert.is(e.type, 'insufficient_funds', b);
  }
});

t('20 concurrent spends of 100 against 500 available: exactly 5 succeed and the balance ends at zero', async () => {
  const from = await ledgerOf(app.db, (await makeAccount(app.db)).id);
  const to = await ledgerOf(app.db, (await makeUser(app.db)).id);
  await fund(from, 500);
  const results = await Promise.allSettled(Array.from({ length: 20 }, () => app.db.transaction((trx) => postEntry(trx, newId('le_'), 'usd', [
    { ledger: from, bucket: 'available', amount: -100 }, { ledger: to, bucket: 'available', amount: 100 },
  ]))));
  assert.is(results.filter((r) => r.status === 'fulfilled').length, 5);
  for (const r of results) if (r.status === 'rejected') assert.is((r.reason as ApiError).type, 'insufficient_funds');
  assert.equal([await bucket(from, 'available'), await bucket(to, 'available')], [0, 500]);
});

t('an entry balances per currency: two currencies that each sum to zero post; one that does not is refused', async () => {
  const a = await ledgerOf(app.db, (await makeAccount(app.db)).id);
  await fund(a, 1_000, 'usd');
  const swap = (eur: number) => app.db.transaction(async (trx) => {
    const entry = newId('le_');
    await postEntry(trx, entry, 'usd', [{ ledger: a, bucket: 'available', amount: -1_000 }, { ledger: a, bucket: 'payout_clearing', amount: 1_000 }]);
    await postEntry(trx, entry, 'eur', [{ ledger: a, bucket: 'payout_clearing', amount: -eur }, { ledger: a, bucket: 'available', amount: eur }]);
  });
  await swap(920);
  assert.equal([await bucket(a, 'available'), await bucket(a, 'available', 'eur')], [0, 920]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
  const unbalanced = await postEntry(app.db, newId('le_'), 'usd', [{ ledger: a, bucket: 'available', amount: 5 }]).catch((e: Error) => e.message);
  assert.match(String(unbalanced), 'does not balance');
});

t.run();
