// Webhooks side by side during a version move (POST /webhooks/{id}/side_by_side): for a window a subscription names,
// every event it receives is delivered twice, at its pin and at a second version:
// - the window is the subscription's (side_by_side_version, side_by_side_until), both set or neither;
// - a delivery may name the version it renders (api_version_date; null: the subscription's pin when it is sent), and
//   an event is fanned out once per subscription and version: the unique index dispatch_event relies on takes the
//   version, nulls not distinct (the pinned delivery's null is one value).
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.date('side_by_side_version').nullable();
    timestamp(t, 'side_by_side_until').nullable();
  });
  await knex.raw(`alter table webhooks add constraint webhooks_side_by_side_check
    check ((side_by_side_version is null) = (side_by_side_until is null))`);
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.date('api_version_date').nullable();
  });
  await knex.raw('drop index if exists webhook_deliveries_dispatched_once');
  await knex.raw(`create unique index webhook_deliveries_dispatched_once on webhook_deliveries (webhook_id, event_id, api_version_date)
    nulls not distinct where replay_id is null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_delivery_attempts').whereIn('delivery_id', knex('webhook_deliveries').whereNotNull('api_version_date').select('id')).delete();
  await knex('webhook_deliveries').whereNotNull('api_version_date').delete();
  await knex.raw('drop index if exists webhook_deliveries_dispatched_once');
  await knex.raw(`create unique index webhook_deliveries_dispatched_once on webhook_deliveries (webhook_id, event_id)
    where replay_id is null`);
  await knex.schema.alterTable('webhook_deliveries', (t) => t.dropColumn('api_version_date'));
  await knex.raw('alter table webhooks drop constraint if exists webhooks_side_by_side_check');
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('side_by_side_version');
    t.dropColumn('side_by_side_until');
  });
}
