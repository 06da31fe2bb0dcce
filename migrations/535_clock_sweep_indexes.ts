// The sweeps a sandbox clock runs (handlers/sandbox/clock-sweeps.ts) read one clock's accounts' due rows: by account,
// then by due time, and only the rows still waiting (partial), so neither an account's history nor the other accounts'
// waiting rows are read. The real-time sweeps keep their time-ordered indexes (payments_funds_to_clear,
// exports_completed, ad_campaigns_delivering).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index payments_funds_to_clear_by_account on payments (account_id, settlement_time_at)
    where funds_cleared_at is null and settlement_time_at is not null`);
  await knex.raw(`create index exports_completed_by_account on exports (account_id, completed_at) where status = 'completed'`);
  await knex.raw(`create index ad_campaigns_delivering_by_account on ad_campaigns (account_id)
    where status = 'active' and deleted_at is null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index ad_campaigns_delivering_by_account; drop index exports_completed_by_account; drop index payments_funds_to_clear_by_account');
}
