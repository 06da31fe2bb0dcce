// Webhooks an integrator can operate (resend, replay, secret rotation, test events):
// - a rotated secret keeps signing beside the new one until its overlap ends (previous_secret, sealed like secret);
// - a replay is recorded, and its deliveries name it: the same event may then be delivered to a subscription more
//   than once (once by its dispatch, once per replay), so the unique (webhook_id, event_id) holds for dispatched
//   deliveries only, which dispatch_event still relies on to fan an event out once;
// - a test delivery says so (its payload carries "test": true); its event, sample data, is stored with no account,
//   so that no dispatch, replay or notification acts on it (handlers/webhooks/testWebhook.ts).
import type { Knex } from 'knex';
import { clockTimestamps, timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.text('previous_secret').nullable();
    timestamp(t, 'previous_secret_expires_at').nullable();
  });
  await knex.schema.createTable('webhook_replays', (t) => {
    t.text('id').primary(); // whrp_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('webhook_id').notNullable().references('webhooks.id');
    timestamp(t, 'since').notNullable();
    timestamp(t, 'until').notNullable();
    t.boolean('since_last_success').notNullable().defaultTo(false);
    t.integer('event_count').notNullable();
    t.integer('per_second').notNullable();
    clockTimestamps(t, knex);
    t.index(['webhook_id', 'created_at', 'id']);
  });
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.text('replay_id').nullable().references('webhook_replays.id');
    t.boolean('test').notNullable().defaultTo(false);
  });
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_webhook_id_event_id_unique');
  await knex.raw(`create unique index webhook_deliveries_dispatched_once on webhook_deliveries (webhook_id, event_id)
    where replay_id is null`);
  await knex.raw('create index webhook_deliveries_replay on webhook_deliveries (replay_id) where replay_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_replay');
  await knex('webhook_delivery_attempts').whereIn('delivery_id', knex('webhook_deliveries').whereNotNull('replay_id').select('id')).delete();
  await knex('webhook_deliveries').whereNotNull('replay_id').delete();
  await knex.raw('drop index if exists webhook_deliveries_dispatched_once');
  await knex.raw('alter table webhook_deliveries add constraint webhook_deliveries_webhook_id_event_id_unique unique (webhook_id, event_id)');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('replay_id');
    t.dropColumn('test');
  });
  await knex.schema.dropTableIfExists('webhook_replays');
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('previous_secret');
    t.dropColumn('previous_secret_expires_at');
  });
}
