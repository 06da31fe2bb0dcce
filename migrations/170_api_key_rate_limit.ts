// A per-key factor on the request budgets of spec/api.yaml rate_limits (runtime/rate-limit.ts): the sandbox demo key
// and keys given more (or less) room. The key is cached with it (runtime/auth.ts), so changing it invalidates.
import type { Knex } from 'knex';

const COLUMNS = 'revoked_at, role, statements, ip_allowlist, expires_at, secret_hash, api_version_date, account_id';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table api_keys add column rate_limit_multiplier double precision not null default 1 check (rate_limit_multiplier > 0)');
  await knex.raw('drop trigger api_keys_invalidates_credentials on api_keys');
  await knex.raw(`create trigger api_keys_invalidates_credentials after update of ${COLUMNS}, rate_limit_multiplier or delete on api_keys
    for each statement execute function notify_cache_invalidation('credentials')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger api_keys_invalidates_credentials on api_keys');
  await knex.raw(`create trigger api_keys_invalidates_credentials after update of ${COLUMNS} or delete on api_keys
    for each statement execute function notify_cache_invalidation('credentials')`);
  await knex.raw('alter table api_keys drop column rate_limit_multiplier');
}
