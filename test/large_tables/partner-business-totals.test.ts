// A partner business's volume_usd and earnings_usd (spec/areas/partners.yaml) under a long earning history:
// LARGE_TABLE_ROWS earnings of one referred account, completed, a few awaiting settlement, some reversed. Read over
// HTTP (retrieve and list), the amounts must be what the earnings sum to, and the statement that reads them must read
// the business's earning totals (migrations/595_partner_earning_totals.ts) and its earnings awaiting settlement (the
// work not yet cleared), never every earning it ever made.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { referred } from '../partners/partner-fixtures.js';
import { assertIndexed, costOf, recorded, reportCost } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const AWAITING = 30;
const t = suite('large tables: a partner business\'s amounts under a long earning history');
let app: TestApp;
let r: Awaited<ReturnType<typeof referred>>;

t.before(async () => {
  app = await startTestApp();
  r = await referred(app);
  // ROWS payments of 100.00 USD (commission 0.30), the last AWAITING still awaiting settlement; every seventh is
  // refunded by half (a reversal of half its volume, commission 0.15), among them some awaiting ones.
  // sql-state-write: bulk seed of a long earning history; ROWS payments settled through the API and the clearing would take far longer than the test
  await app.db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_pbt' || lpad(i::text, 8, '0'), ?, 'succeeded', 'one_time', 'usd', 10000, 10000, 10000, now() - i * interval '1 minute', now()
    from generate_series(1, ?) i`, [r.accountId, ROWS]);
  // sql-state-write: bulk seed of a long earning history, as accrual (handlers/partners/accrue.ts) and clearing leave it
  await app.db.raw(`insert into partner_earnings (id, partner_business_id, account_id, payment_id, income_source, status, payout_percentage,
      transaction_amount, platform_fee_amount, commission_amount, payout_at, source_id, created_at, updated_at)
    select 'pern_pbt' || lpad(i::text, 8, '0'), ?, ?, 'pay_pbt' || lpad(i::text, 8, '0'), 'sales',
      case when i <= ${AWAITING} then 'awaiting_settlement' else 'completed' end, 30, 10000, 100, 30,
      case when i <= ${AWAITING} then null else now() end, 'pay_pbt' || lpad(i::text, 8, '0'), now() - i * interval '1 minute', now()
    from generate_series(1, ?) i`, [r.businessId, r.accountId, ROWS]);
  // sql-state-write: bulk seed of the reversals of a long history, as handlers/partners/reverse.ts leaves them
  await app.db.raw(`insert into partner_earnings (id, partner_business_id, account_id, payment_id, income_source, status, payout_percentage,
      transaction_amount, platform_fee_amount, commission_amount, payout_at, source_id, reverses_id, reversal_reason, created_at, updated_at)
    select 'pern_pbtr' || lpad(i::text, 8, '0'), ?, ?, 'pay_pbt' || lpad(i::text, 8, '0'), 'sales', 'reversed', 30, -5000, -50, -15, now(),
      're_pbt' || lpad(i::text, 8, '0'), 'pern_pbt' || lpad(i::text, 8, '0'), 'refund', now(), now()
    from generate_series(1, ?) i where i % 7 = 0`, [r.businessId, r.accountId, ROWS]);
  await app.db.raw('analyze partner_earnings');
});
t.after(async () => { await app.close(); });

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The amounts as the spec defines them: each earning with its reversals, by the earning's status. */
function expected() {
  let awaitingVolume = 0; let settledVolume = 0; let pending = 0; let completed = 0;
  for (let i = 1; i <= ROWS; i++) {
    const volume = 10_000 - (i % 7 === 0 ? 5_000 : 0);
    const commission = 30 - (i % 7 === 0 ? 15 : 0);
    if (i <= AWAITING) { awaitingVolume += volume; pending += commission; } else { settledVolume += volume; completed += commission; }
  }
  return {
    volume_usd: { attributed: dollars(awaitingVolume + settledVolume), awaiting_settlement: dollars(awaitingVolume), settled: dollars(settledVolume) },
    earnings_usd: { completed: dollars(completed), pending: dollars(pending), total: dollars(completed + pending) },
  };
}

/** The request's statement that reads the earnings, explained: the earnings read are the awaiting ones and their
 * reversals (about AWAITING * 2), never the history. */
async function readsTotals(path: string) {
  const { result: res, statements } = await recorded(() => app.request('GET', path, { token: r.partner.token, version: headVersion() }));
  assert.is(res.status, 200, JSON.stringify(res.body));
  const cost = await costOf(app.db, statements, /from "?partner_businesses"?[\s)]/i);
  reportCost(path, cost);
  assertIndexed(cost, 'partner_earnings');
  assert.ok((cost.rowsRead.partner_earnings ?? 0) <= 4 * AWAITING, `partner_earnings rows read: ${cost.rowsRead.partner_earnings} (${cost.plan})`);
  assert.ok((cost.rowsRead.partner_earning_totals ?? 0) <= 100, `partner_earning_totals rows read: ${cost.rowsRead.partner_earning_totals} (${cost.plan})`);
  return res.body;
}

t('retrieving a business reads its totals and its earnings awaiting settlement, and sums all of its history', async () => {
  const business = await readsTotals(`/partners/businesses/${r.businessId}`);
  const want = expected();
  assert.equal([business.volume_usd, business.earnings_usd], [want.volume_usd, want.earnings_usd]);
});

t('listing the partner\'s businesses does the same per business', async () => {
  const list = await readsTotals('/partners/businesses');
  const [business] = list.data.filter((b: { id: string }) => b.id === r.businessId);
  const want = expected();
  assert.equal([business.volume_usd, business.earnings_usd], [want.volume_usd, want.earnings_usd]);
});

t.run();
