// Materialised balances: the database moves a balance with every posting, refuses unbalanced entries and edits of
// history, and `verify-ledger` re-derives both invariants from scratch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount } from '../helpers/fixtures.js';
import { runCli } from '../cli/cli-helpers.js';
import { makeSeller, makeVariant, pay, settleRefunds, VERSION } from '../payments/payment-fixtures.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { balanceRowsOf } from '../helpers/ledger.js';

const t = suite('ledger: materialised balances');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const balances = async (accountId: string) => Object.fromEntries((await balanceRowsOf(app.db, accountId)
  .where({ currency: 'usd' })).map((r) => [r.bucket, Number(r.amount)]));
const failure = async (work: () => Promise<unknown>): Promise<string> => {
  try {
    await work();
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

t('a payment and its refund move the balances the account shows, and the ledger verifies', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'FR' }); // 20% tax: total 1200
  const settled = await balances(s.accountId);
  assert.is(settled.processor_clearing, -1200);
  assert.is(settled.pending + settled.fees, 1200);
  await app.request('POST', `/payments/${id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 300 } });
  await settleRefunds(app, id);
  const after = await balances(s.accountId);
  assert.is(after.pending, settled.pending - 300);
  assert.is(after.processor_clearing, -900);
  const shown = await app.request('GET', `/accounts/${s.accountId}`, { token: s.key });
  assert.is(shown.body.balance.pending.amount, after.pending);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
  assert.ok(report.entries >= 2 && report.balances >= 3);
});

t('an entry whose postings do not sum to zero is refused when its transaction commits, and nothing moves', async () => {
  const account = await makeAccount(app.db);
  const ledger = await ledgerOf(app.db, account.id);
  const message = await failure(() => app.db.transaction(async (trx) => {
    await trx('ledger_postings').insert([ // sql-state-write: an unbalanced entry the product never writes, to prove the commit-time check refuses it
      { entry_id: 'lopsided', ledger_id: ledger, bucket: 'available', currency: 'usd', amount: 500 },
      { entry_id: 'lopsided', ledger_id: ledger, bucket: 'processor_clearing', currency: 'usd', amount: -499 },
    ]);
  }));
  assert.match(message, 'ledger entry lopsided does not balance in usd: its postings sum to 1');
  assert.equal(await balances(account.id), {});
  assert.is((await app.db('ledger_postings').where({ entry_id: 'lopsided' })).length, 0);
});

t('history is append-only: postings cannot be changed or deleted, nor balances written by hand', async () => {
  const account = await makeAccount(app.db);
  const ledger = await ledgerOf(app.db, account.id);
  await app.db('ledger_postings').insert([ // sql-state-write: postings stated by hand so that the append-only guard below has rows to refuse changing
    { entry_id: 'fixed', ledger_id: ledger, bucket: 'available', currency: 'usd', amount: 70 },
    { entry_id: 'fixed', ledger_id: ledger, bucket: 'processor_clearing', currency: 'usd', amount: -70 },
  ]);
  assert.match(await failure(() => app.db('ledger_postings').where({ entry_id: 'fixed' }).update({ amount: 1 })), 'append-only'); // sql-state-write: must be refused: proves postings are append-only
  assert.match(await failure(() => app.db('ledger_postings').where({ entry_id: 'fixed' }).delete()), 'append-only'); // sql-state-write: must be refused: proves postings are append-only
  const byHand = 'ledger balances move only with ledger postings';
  assert.match(await failure(() => app.db('ledger_balances').where({ ledger_id: ledger }).update({ amount: 1_000_000 })), byHand); // sql-state-write: must be refused: proves balances move only with postings
  assert.match(await failure(() => app.db('ledger_balances').where({ ledger_id: ledger }).delete()), byHand); // sql-state-write: must be refused: proves balances move only with postings
  assert.match(await failure(() => app.db('ledger_balances').insert({ ledger_id: ledger, currency: 'eur', bucket: 'available', amount: 5 })), byHand); // sql-state-write: must be refused: proves balances move only with postings
  assert.equal(await balances(account.id), { available: 70, processor_clearing: -70 });
});

t('a long history: 20,000 postings in one statement leave exact balances, and the account view reads them', async () => {
  const account = await makeAccount(app.db);
  const ledger = await ledgerOf(app.db, account.id);
  // 10,000 balanced entries of 1..10,000 cents each, into available (odd) or pending (even).
  // sql-state-write: bulk seeding 20,000 postings in one statement: the case is the trigger's totals over a long history
  await app.db.raw(`insert into ledger_postings (entry_id, ledger_id, bucket, currency, amount)
    select 'bulk' || n, ?, case when n % 2 = 1 then 'available' else 'pending' end, 'usd', n from generate_series(1, 10000) n
    union all
    select 'bulk' || n, ?, 'processor_clearing', 'usd', -n from generate_series(1, 10000) n`, [ledger, ledger]);
  const odd = 5000 * 5000; // 1 + 3 + ... + 9999
  const even = 5000 * 5001; // 2 + 4 + ... + 10000
  assert.equal(await balances(account.id), { available: odd, pending: even, processor_clearing: -(odd + even) });
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('npm run cli -- verify-ledger says the ledger holds, and exits 1 naming a balance that drifted', async () => {
  const env = { ...process.env, DATABASE_URL: app.databaseUrl };
  const ok = await runCli(['verify-ledger'], env);
  assert.is(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /The ledger holds: \d+ balances equal their postings; \d+ entries each sum to zero\./);
  // Drift can only be made by switching the guard off, as a broken migration or a manual fix would.
  const account = await makeAccount(app.db);
  const ledger = await ledgerOf(app.db, account.id);
  await app.db.transaction(async (trx) => {
    await trx.raw('alter table ledger_balances disable trigger ledger_balances_follow_postings');
    await trx('ledger_balances').insert({ ledger_id: ledger, currency: 'usd', bucket: 'available', amount: 42 }); // sql-state-write: corrupts a balance on purpose (trigger off) so that verify-ledger has a drift to find
    await trx.raw('alter table ledger_balances enable trigger ledger_balances_follow_postings');
  });
  const bad = await runCli(['verify-ledger'], env);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, `${ledger} usd available: balance 42, postings sum to 0`);
});

t.run();
