// Rewriting a column of existing rows in code (sealing a secret, hashing one the database cannot): a batch at a
// time in key order, so memory holds one batch whatever the table's size.
import type { Knex } from 'knex';

const BATCH = 1000;

/** Rewrites `column` of the rows `where` selects with `next(row)` (rows keyed by `key`; the value cast to `type`). */
export async function rewriteRows(knex: Knex, table: string, key: string, column: string, where: string,
  next: (row: Record<string, any>) => unknown, type = 'text'): Promise<void> {
  for (let after = ''; ;) {
    const rows = (await knex.raw(`select ${key} as k, ${column} as v, * from ${table} where ${where} and ${key}::text > ? order by ${key}::text limit ${BATCH}`, [after])).rows;
    if (rows.length === 0) return;
    const values = rows.map((r: Record<string, any>) => next(r));
    await knex.raw(`update ${table} t set ${column} = n.v::${type} from unnest(?::text[], ?::text[]) as n(k, v) where t.${key}::text = n.k`,
      [rows.map((r: Record<string, any>) => String(r.k)), values.map((v: unknown) => (typeof v === 'string' || v === null ? v : JSON.stringify(v)))]);
    after = String(rows[rows.length - 1].k);
  }
}
