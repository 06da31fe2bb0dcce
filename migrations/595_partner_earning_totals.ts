// A partner business's volume_usd and earnings_usd (spec/areas/partners.yaml) were summed from every earning it ever
// made on each read, four scans of the whole partner_earnings table per business (91,428 rows read for one business
// of 22,857 earnings, test/large_tables/partner-business-totals.test.ts). Now: its totals over all earnings and
// reversals come from partner_earning_totals (support/totals.ts: a few rows), and only the part awaiting settlement
// is summed from the earnings themselves: the earnings still awaiting settlement (the partial index; the payments
// whose funds have not cleared yet, the work in flight, not the history) with their reversals (by reverses_id, which
// the clearing and the reversals also sum by: handlers/ledger/clearing-partner-earnings.ts, handlers/partners/reverse.ts).
// The settled part is the total less that: an earning is awaiting settlement or completed, and a reversal counts
// with the earning it reverses.
import type { Knex } from 'knex';
import { createTotals, dropTotals } from './support/totals.js';

const TABLE = { name: 'partner_earning_totals', source: 'partner_earnings', keys: ['partner_business_id'], sums: ['transaction_amount', 'commission_amount'] };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index partner_earnings_reverses on partner_earnings (reverses_id) where reverses_id is not null');
  await knex.raw(`create index partner_earnings_awaiting on partner_earnings (partner_business_id) where status = 'awaiting_settlement'`);
  await createTotals(knex, TABLE);
}

export async function down(knex: Knex): Promise<void> {
  await dropTotals(knex, TABLE);
  await knex.raw('drop index partner_earnings_awaiting; drop index partner_earnings_reverses');
}
