// Sellers for the money properties (test/money/money-property.test.ts, test/financial_reports/report-totals.test.ts):
// two days old (so payouts are not held for review as new accounts'), three plans, a payout method on each of the
// rail's outcomes (paid, failed, reversed) and something to spend before the first payment clears.
import type { TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant } from '../payments/payment-fixtures.js';
import { saveMethod } from '../payouts/payout-fixtures.js';
import { TEST_DESTINATIONS } from '../../sandbox/payout_rail/index.js';
import { fundBalance } from '../helpers/ledger.js';
import { clearDueFunds } from '../../handlers/ledger/clearing.js';
import { decimalText } from '../../runtime/decimal-money.js';
import { makeUser } from '../helpers/fixtures.js';
import { referPartnerBusiness } from '../../handlers/accounts/account-service.js';

export type MoneySeller = Awaited<ReturnType<typeof makeSeller>> & { planIds: string[]; methods: string[]; partnerId: string };

export async function makeMoneySeller(app: TestApp): Promise<MoneySeller> {
  const s = await makeSeller(app.db);
  await app.db('accounts').where({ id: s.accountId }).update({ created_at: app.db.raw("now() - interval '2 days'") }); // sql-state-write: the money properties drive the rail and sweeps at real time (outside any clock), where an account is a day old only after a real day
  const planIds = [];
  for (const price of [1_000, 2_500, 4_000]) planIds.push((await makeVariant(app, s.accountId, { price })).id as string);
  const methods = [];
  for (const number of ['123456789', TEST_DESTINATIONS.fails, TEST_DESTINATIONS.reversed]) {
    methods.push((await saveMethod(app, s.key, { account_id: s.accountId }, number)).id as string);
  }
  await fundBalance(app.db, s.accountId, 5_000);
  // Referred by a partner: every settled payment also pays a commission out of the platform's fee revenue.
  const partner = await makeUser(app.db);
  await referPartnerBusiness(app.db, s.accountId, partner.user.username);
  return { ...s, planIds, methods, partnerId: partner.id };
}

/** Minor units of a two-decimal currency as the decimal string payouts take ("12.05"). */
export const dollars = (cents: number): string => decimalText({ amount: cents, decimals: 2 });

/** Every settled payment made old enough to clear, then the clearing sweep, as time passing would. */
export async function clearEverySettled(app: TestApp): Promise<void> {
  await app.db('payments').whereNull('funds_cleared_at').whereNotNull('settlement_time_at')
    .update({ settlement_time_at: app.db.raw("settlement_time_at - interval '3 days'") }); // sql-state-write: the money properties run the real-time clearing sweep (clearDueFunds), which skips clocked accounts, so real time must have passed the clearing period
  await clearDueFunds(app.db);
}
