// When a settled payment's funds cleared: from then on its net amount is available to pay out or transfer. The
// clearing sweep (handlers/ledger/clearing.ts) finds the payments still to clear by the partial index, whatever
// the number of payments cleared before.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => { timestamp(t, 'funds_cleared_at').nullable(); });
  await knex.raw(`create index payments_funds_to_clear on payments (settlement_time_at)
    where funds_cleared_at is null and settlement_time_at is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => t.dropColumn('funds_cleared_at'));
}
