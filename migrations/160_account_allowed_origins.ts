// Browser origins an account lets call its client-id operations (CORS): any origin until the account narrows it.
// The client id lookup caches the list with the account (runtime/auth.ts), so changing it invalidates credentials.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table accounts add column allowed_origins text[] not null default '{*}'");
  await knex.raw('drop trigger accounts_invalidates_credentials on accounts');
  await knex.raw(`create trigger accounts_invalidates_credentials after update of client_id, allowed_origins on accounts
    for each statement execute function notify_cache_invalidation('credentials')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger accounts_invalidates_credentials on accounts');
  await knex.raw(`create trigger accounts_invalidates_credentials after update of client_id on accounts
    for each statement execute function notify_cache_invalidation('credentials')`);
  await knex.raw('alter table accounts drop column allowed_origins');
}
