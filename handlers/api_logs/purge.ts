// The purge_api_logs job (hourly): api logs and app logs (migration 451) older than 7 days are deleted, 10,000 at a time so that no statement
// holds many locks or runs long. A delete is its own idempotency: a second run finds nothing older left.
// `now` is a parameter so that tests move the clock.
import type { Knex } from 'knex';

export const PURGE_API_LOGS = 'purge_api_logs';
export const API_LOG_RETENTION_DAYS = 7;
const BATCH = 10_000;

/** Deletes the logs older than the retention at `now`; how many. */
export async function purgeApiLogs(db: Knex, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - API_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  let total = 0;
  for (const table of ['api_logs', 'app_logs']) {
    for (;;) {
      const { rowCount } = await db.raw(
        `delete from ${table} where id in (select id from ${table} where created_at < ? limit ?)`, [cutoff, BATCH]);
      total += rowCount ?? 0;
      if (!rowCount || rowCount < BATCH) break;
    }
  }
  return total;
}

export const purgeApiLogsTask = (db: Knex) => async () => { await purgeApiLogs(db); };
