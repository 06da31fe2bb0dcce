// fx_rates is read by every payment (its usd_total) and swap, so every server caches it (handlers/shared/fx-rates.ts);
// a change to a rate reaches them all through the reference topic (migrations/140), as supported_payout_methods does.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create trigger fx_rates_invalidates_reference after insert or update or delete
    on fx_rates for each statement execute function notify_cache_invalidation('reference')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists fx_rates_invalidates_reference on fx_rates');
}
