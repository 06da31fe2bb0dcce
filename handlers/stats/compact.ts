// compact_stat_rollups (every minute): folds the rows the stats triggers inserted (migrations/310_stat_rollups.ts)
// into one row per key, so that reads, which sum a key's rows, stay at about one row per key. Only this job deletes
// rollup rows, and it only touches rows committed before it started: a concurrent trigger's rows wait for the next
// run. A second run at the same time finds the first one's rows gone and folds nothing twice.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';

export const COMPACT_STAT_ROLLUPS = 'compact_stat_rollups';
const BATCH = 5000;

const FOLD_ROLLUPS = `
  with keys as (
    select distinct account_id, metric, currency, grain, bucket from stat_rollups where not compacted limit ${BATCH}),
  gone as (
    delete from stat_rollups r using keys k
    where r.account_id = k.account_id and r.metric = k.metric and r.currency = k.currency and r.grain = k.grain and r.bucket = k.bucket
    returning r.*),
  folded as (
    insert into stat_rollups (account_id, metric, currency, grain, bucket, value, count, compacted)
      select account_id, metric, currency, grain, bucket, sum(value), sum(count), true from gone group by 1, 2, 3, 4, 5
    returning 1)
  select count(*)::int as keys from folded`;

const FOLD_LEVELS = `
  with keys as (select distinct account_id, metric from stat_levels where not compacted),
  gone as (delete from stat_levels l using keys k where l.account_id = k.account_id and l.metric = k.metric returning l.*)
  insert into stat_levels (account_id, metric, value, compacted) select account_id, metric, sum(value), true from gone group by 1, 2`;

/** One batch of keys folded; returns how many keys (the task repeats while a batch is full). */
export async function compactStatRollups(db: Knex): Promise<number> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw(FOLD_ROLLUPS);
    await trx.raw(FOLD_LEVELS);
    return rows[0].keys as number;
  });
}

export const compactStatRollupsTask = (db: Knex): Task => async () => {
  while ((await compactStatRollups(db)) === BATCH);
};
