// The platform operator's switches (npm run cli -- operator, bin/cli-operator.ts), recorded with who and when:
// withdrawals disabled on an account, mandatory 3-D Secure challenges enabled. The switch itself lives on the
// account; this table is its history, never read to decide anything.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table if not exists operator_actions (
    id text primary key,
    operator text not null,
    account_id text not null references accounts(id) on delete cascade,
    action text not null,
    created_at timestamptz not null default date_trunc('milliseconds', clock_now())
  )`);
  await knex.raw('create index if not exists operator_actions_account_idx on operator_actions (account_id, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists operator_actions');
}
