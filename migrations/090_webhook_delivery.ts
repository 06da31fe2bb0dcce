// Webhook delivery state: events know when they were fanned out; a delivery holds a lease while it is being sent,
// so a worker that dies mid-send leaves a delivery that the sweep can hand to another.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    timestamp(t, 'dispatched_at').nullable();
  });
  await knex.raw('create index events_undispatched on events (created_at) where dispatched_at is null');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    timestamp(t, 'lease_until').nullable();
    t.integer('last_response_status').nullable();
  });
  await knex.raw("create index webhook_deliveries_open on webhook_deliveries (next_attempt_at) where status in ('pending', 'sending')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_open');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('lease_until');
    t.dropColumn('last_response_status');
  });
  await knex.raw('drop index if exists events_undispatched');
  await knex.schema.alterTable('events', (t) => t.dropColumn('dispatched_at'));
}
