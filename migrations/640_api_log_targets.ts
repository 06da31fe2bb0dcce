// Api logs keep, for a read (GET) of the Current API, the path and query it asked for (`/payments?account_id=biz_...`):
// the shadow replay (handlers/api_logs/shadow-replay.ts) re-runs a key's reads as they were made. One more text per
// batch, joined like the others (runtime/api-log.ts); a write, a path with a secret and an older batch hold none
// (an empty text: every request's value null). Not shown by GET /api_logs, which names the path template only.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table api_log_batches add column targets text not null default ''`);
  await knex.raw('alter table api_log_batches alter column targets set storage external');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table api_log_batches drop column targets');
}
