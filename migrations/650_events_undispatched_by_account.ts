// An event's fan-out first takes its account's earlier events not fanned out yet, oldest first
// (handlers/webhooks/delivery/dispatch-event-task.ts): they are found through this index, which holds only events
// waiting to go out, so it stays small however long the account's history.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index events_undispatched_by_account on events (account_id, created_at, id) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index events_undispatched_by_account');
}
