// compact_totals (every minute): folds the rows the triggers of every totals table (migrations/support/totals.ts,
// listed in totals_tables) inserted into one row per key, so that readers, which sum a key's rows, read about one
// row per key. Only this job deletes totals rows, and only rows committed before its statement began: a concurrent
// trigger's rows wait for the next run, and a second run at the same time finds the first one's rows gone.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';

export const COMPACT_TOTALS = 'compact_totals';
const BATCH = 5000;

interface TotalsTable { name: string; keys: string[]; nullable: string[]; sums: string[] }

function foldStatement(t: TotalsTable): string {
  // Keys that may be null match with `is not distinct from`; the others with `=`, which the key index serves.
  const same = t.keys.map((k) => (t.nullable.includes(k) ? `r.${k} is not distinct from k.${k}` : `r.${k} = k.${k}`)).join(' and ');
  return `
    with keys as (select distinct ${t.keys.join(', ')} from ${t.name} where not compacted limit ${BATCH}),
    gone as (delete from ${t.name} r using keys k where ${same} returning r.*),
    folded as (
      insert into ${t.name} (${[...t.keys, ...t.sums].join(', ')}, compacted)
        select ${t.keys.join(', ')}, ${t.sums.map((s) => `sum(${s})`).join(', ')}, true from gone group by ${t.keys.join(', ')}
      returning 1)
    select count(*)::int as keys from folded`;
}

/** One batch of keys of one table folded; returns how many keys. */
async function compactTable(db: Knex, table: TotalsTable): Promise<number> {
  const { rows } = await db.raw(foldStatement(table));
  return rows[0].keys as number;
}

/** Folds every totals table's new rows (in batches, each its own transaction). */
export async function compactTotals(db: Knex): Promise<void> {
  const tables: TotalsTable[] = await db('totals_tables').orderBy('name').select('name', 'keys', 'nullable', 'sums');
  for (const table of tables) while ((await compactTable(db, table)) === BATCH);
}

export const compactTotalsTask = (db: Knex): Task => async () => { await compactTotals(db); };
