// The purge_api_logs job (hourly): api logs and app logs (migration 451) older than 7 days are deleted, a bounded
// number of rows at a time so that no statement holds many locks or runs long. Api logs go a batch at a time
// (migration 490: a batch spans less than a minute), once its last request is older than 7 days. A delete is its own
// idempotency: a second run finds nothing older left.
// `now` is a parameter so that tests move the clock.
import type { Knex } from 'knex';

export const PURGE_API_LOGS = 'purge_api_logs';
export const API_LOG_RETENTION_DAYS = 7;
const BATCH = 10_000;
/** api log batches per delete: up to 500 requests each */
const LOG_BATCHES = 100;

/** Deletes the logs older than the retention at `now`; how many. */
export async function purgeApiLogs(db: Knex, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - API_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  let total = 0;
  // Api logs: a batch row holds up to 500 requests; the count is of requests.
  for (;;) {
    const { rows } = await db.raw(`with gone as (delete from api_log_batches where id in
        (select id from api_log_batches where last_at < ? limit ?) returning entries)
      select count(*)::int as batches, coalesce(sum(entries), 0)::int as entries from gone`,
    [cutoff, LOG_BATCHES]);
    total += rows[0].entries;
    if (rows[0].batches < LOG_BATCHES) break;
  }
  for (;;) {
    const { rowCount } = await db.raw(`delete from app_logs where id in (select id from app_logs where created_at < ? limit ?)`, [cutoff, BATCH]);
    total += rowCount ?? 0;
    if (!rowCount || rowCount < BATCH) break;
  }
  return total;
}

export const purgeApiLogsTask = (db: Knex) => async () => { await purgeApiLogs(db); };
