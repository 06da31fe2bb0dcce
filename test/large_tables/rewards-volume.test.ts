// Rewards under a long sales history (handlers/accounts/lifetime-volume.ts): a seller with LARGE_TABLE_ROWS settled
// payments (0.40 USD each, 8,000.00 USD in all, as the product leaves them: each counts its usd_total, the account's
// lifetime volume their sum) among as many of another seller. A payment through the API that takes it past the
// 10,000.00 USD milestone pays the reward, and the account's rewards read its progress: the statements that count the
// payment's volume, pay the milestone and read the rewards read the payment, the account and its few reward rows,
// never the history they count. (Each statement is explained again after the request: its plan is the one it ran
// with, its rows those of the state it left, the payment already counted.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, pay, VERSION } from '../payments/payment-fixtures.js';
import { assertIndexed, costOf, recorded, reportCost, type StatementCost } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const EACH = 40;
const t = suite('large tables: rewards under a long sales history');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;

t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  for (const [account, prefix] of [[seller.accountId, 'rwv'], [other.accountId, 'rwo']]) {
    // sql-state-write: bulk seed of a long settled sales history (cleared), as settlement leaves it; ROWS payments through the API would take far longer than the test
    await app.db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, volume_usd,
        settlement_time_at, funds_cleared_at, created_at, updated_at)
      select 'pay_${prefix}' || lpad(i::text, 8, '0'), ?, 'succeeded', 'one_time', 'usd', ${EACH}, ${EACH}, ${EACH}, ${EACH},
        now() - interval '3 days', now() - interval '1 day', now() - interval '3 days' - i * interval '1 second', now()
      from generate_series(1, ?) i`, [account, ROWS]);
    // sql-state-write: the account's lifetime volume as those payments' settlements left it (handlers/accounts/lifetime-volume.ts)
    await app.db('accounts').where({ id: account }).update({ lifetime_volume_usd: ROWS * EACH });
  }
  // And a large accounts table (the volume's row is found by key among them).
  await app.db.raw( // sql-state-write: bulk seed of a large accounts table (as test/large_tables/accounts-by-volume.test.ts)
    `insert into accounts (id, parent_id, title, route, client_id, created_at, updated_at)
    select 'biz_rwv' || lpad(i::text, 8, '0'), ?, 'Shop ' || i, 'rwv-' || i, 'client_rwv' || i, now(), now()
    from generate_series(1, ?) i`, [other.accountId, ROWS]);
  await app.db.raw('analyze payments, accounts');
});
t.after(async () => { await app.close(); });

function bounded(cost: StatementCost, what: string) {
  reportCost(what, cost);
  for (const table of ['payments', 'accounts', 'reward_payouts', 'disputes']) {
    // (A bitmap scan of the account's reward payouts is its few rows, one per milestone at most.)
    assertIndexed(cost, table, { bitmap: table === 'reward_payouts' });
    assert.ok((cost.rowsRead[table] ?? 0) <= 10, `${what}: ${table} rows read ${cost.rowsRead[table]} (${cost.plan})`);
  }
}

t('a payment that crosses a milestone counts one payment and pays once; the rewards read a few rows', async () => {
  assert.ok(ROWS * EACH < 1_000_000, 'LARGE_TABLE_ROWS leaves the history under the 10,000.00 USD milestone');
  const crossing = 1_000_000 - ROWS * EACH + 100;
  const { statements } = await recorded(() => pay(app, seller, { amount: crossing, currency: 'usd' }));
  bounded(await costOf(app.db, statements, /^\s*with p as \(/), 'count the settled payment (RECOUNT)');
  bounded(await costOf(app.db, statements, /^\s*insert into reward_payouts/), 'pay the milestones reached (PAY)');

  const read = await recorded(() => app.request('GET', `/accounts/${seller.accountId}`, { token: seller.key, version: VERSION }));
  assert.is(read.result.status, 200, JSON.stringify(read.result.body));
  const reward = read.result.body.rewards.find((r: { id: string }) => r.id === 'rwd_10k');
  // Progress stops at the threshold; paid: the history and the payment together reached it.
  assert.equal([reward.progress.amount, reward.payout_status], [1_000_000, 'paid']);
  const [volume] = await app.db('accounts').where({ id: seller.accountId }).pluck('lifetime_volume_usd');
  assert.is(Number(volume), ROWS * EACH + crossing);
  bounded(await costOf(app.db, read.statements, /reward_payouts/), 'the account\'s rewards');
});

t.run();
