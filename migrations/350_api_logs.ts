// Api logs (spec/areas/api_logs.yaml): one row per authenticated API request, written in batches by
// runtime/api-log.ts outside the request's transaction. Never a secret, a header or a body: only what identifies
// the request and its answer. Kept 7 days (handlers/api_logs/purge.ts).
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_logs', (t) => {
    t.text('id').primary(); // alog_
    t.text('account_id').nullable(); // the API key's account; null for user tokens (no FK: logs outlive nothing and must never block a write)
    t.text('api_key_id').nullable(); // apik_ for API keys
    t.text('user_id').nullable(); // the user behind a user token
    t.text('credential_kind').notNullable(); // api_key | user_token | client
    t.text('operation').notNullable(); // the operation id
    t.text('method').notNullable();
    t.text('path').notNullable(); // the operation's path template, never the requested path
    t.integer('status').notNullable();
    t.text('outcome').notNullable(); // success | client_error | server_error
    t.integer('duration_ms').notNullable();
    t.text('api_version').nullable();
    t.text('request_id').notNullable();
    timestamp(t, 'created_at').notNullable();
    t.index(['account_id', 'created_at', 'id']);
    t.index(['api_key_id', 'created_at', 'id']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_logs');
}
