// An app's runtime logs (GET /apps/{id}/logs, the official client's apps.logs): console lines and exceptions of the
// simulated build system's runs over the app's builds (handlers/apps/build-system.ts, in the run's transaction), and
// summaries of the app's failed requests (its API keys' requests answered 4xx or 5xx), written by the api log
// writer's own batch statement (runtime/api-log.ts). Kept 7 days like api logs (handlers/api_logs/purge.ts).
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_logs', (t) => {
    t.text('id').primary(); // aplog_
    t.text('account_id').notNullable(); // the app's account (no FKs: logs never block a write, like api_logs)
    t.text('app_id').notNullable();
    t.text('app_build_id').nullable(); // the build the line is about; for a request, the app's production web build then
    t.text('source').notNullable(); // console | exception | request
    t.text('level').notNullable(); // log | debug | info | warn | error
    t.text('message').notNullable();
    t.text('stack').nullable();
    t.text('request_id').notNullable(); // the API request's id; for a build system run, "<task>:<build id>"
    t.text('request_method').nullable();
    t.text('request_path').nullable();
    t.integer('response_status').nullable();
    t.text('outcome').nullable();
    t.integer('wall_time_ms').nullable();
    timestamp(t, 'created_at').notNullable();
    t.index(['app_id', 'created_at', 'id']); // a page of one app's logs, newest first, whatever its history
    t.index(['created_at']); // the purge
  });
  await knex.raw("alter table app_logs add constraint app_logs_source check (source in ('console', 'exception', 'request'))");
  await knex.raw("alter table app_logs add constraint app_logs_level check (level in ('log', 'debug', 'info', 'warn', 'error'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_logs');
}
