// What autovacuum would do between two measurements, done by hand: this machine's PostgreSQL runs with autovacuum off,
// so the tables a write scenario fills from empty (people, payouts, ...) kept the statistics of an empty table, and a
// connection's cached generic plan made for an empty table (a scan of every row of the account, hashed) stayed while
// the table grew: POST /events cost the framework, whose rounds came first, 3 ms of PostgreSQL's CPU per request in
// its first round and 15-22 ms in its fourth, and the same-work baseline, planning later, ~0.9 ms throughout.
// An ANALYZE invalidates the plans that read the table, as autovacuum's would.
import type { Knex } from 'knex';

/** ANALYZE every table changed by more rows than autovacuum's default threshold (50 + 10% of its rows) since its
 * last analysis; returns the tables analyzed. */
export async function analyzeLikeAutovacuum(db: Knex): Promise<string[]> {
  const { rows } = await db.raw(`select s.relid::regclass::text as name from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) order by 1`);
  const names = rows.map((r: { name: string }) => r.name);
  if (names.length) await db.raw(`analyze ${names.join(', ')}`);
  return names;
}
