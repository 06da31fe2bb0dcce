// Writes to what the servers cache in memory (runtime/shared-cache.ts) NOTIFY its topic; PostgreSQL delivers it to
// every listening process when the writing transaction commits. Triggers rather than calls in handlers: every
// writer (handlers, the CLI, a manual fix, code not written yet) invalidates, or none could be trusted to.
import type { Knex } from 'knex';

const TRIGGERS: [table: string, events: string, topic: string][] = [
  // last_used_at is not among the columns: recording a key's use does not change what it may do.
  ['api_keys', 'update of revoked_at, role, statements, ip_allowlist, expires_at, secret_hash, api_version_date, account_id or delete', 'credentials'],
  ['user_tokens', 'update of revoked_at, expires_at, secret_hash, user_id or delete', 'credentials'],
  ['accounts', 'update of client_id', 'credentials'],
  ['accounts', 'insert or delete or update of parent_id', 'visibility'],
  ['team_members', 'insert or update or delete', 'visibility'],
  ['tax_rates', 'insert or update or delete', 'reference'],
  ['reward_milestones', 'insert or update or delete', 'reference'],
  ['economic_intelligence_offers', 'insert or update or delete', 'reference'],
];

const name = (table: string, topic: string) => `${table}_invalidates_${topic}`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_cache_invalidation() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cache_invalidation', tg_argv[0]);
      return null;
    end $$`);
  for (const [table, events, topic] of TRIGGERS) {
    await knex.raw(`create trigger ${name(table, topic)} after ${events} on ${table}
      for each statement execute function notify_cache_invalidation('${topic}')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, , topic] of TRIGGERS) await knex.raw(`drop trigger if exists ${name(table, topic)} on ${table}`);
  await knex.raw('drop function if exists notify_cache_invalidation()');
}
