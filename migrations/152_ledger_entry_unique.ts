// A ledger entry posts to each of an account's buckets once. Payment and refund settlement are background jobs that
// run again after a crash (runtime/worker-liveness.ts); their status checks make a re-run do nothing, and this index
// makes a repeated posting impossible even if a check were wrong: the second insert fails and its transaction with
// it. (A repeated entry would still sum to zero, so the balanced-entry check of 130 would not catch it.)
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create unique index ledger_postings_entry_bucket on ledger_postings (entry_id, account_id, bucket, currency)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index ledger_postings_entry_bucket');
}
