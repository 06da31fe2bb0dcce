// Totals the database keeps, so that a summary reads a few rows per group whatever the size of the history behind
// it. A totals table holds, per key (some columns), a count and sums; its rows are only ever inserted by the
// statements that change the source (deltas: + for new rows, - for the old versions of changed or deleted ones),
// and readers sum a key's rows. The compact_totals job (handlers/shared/compact-totals.ts, every minute) folds each
// key's new rows into one, for every table listed in totals_tables. Inserting only, the triggers take no row lock
// a concurrent writer could wait on: an upsert would hold the key's row from the statement to the commit, in
// whatever order a handler's statements run, and deadlock with the ledger's balance rows.
import type { Knex } from 'knex';

export interface TotalsTable {
  /** the totals table */
  name: string;
  /** its key columns, and which of them may be null */
  keys: string[];
  nullable?: string[];
  /** the summed columns (bigint) */
  sums: string[];
}

/** The catalogue the compaction job reads; made by the first totals table (stats rollups, migrations/310). */
export async function registerTotals(knex: Knex, table: TotalsTable): Promise<void> {
  await knex.raw(`create table if not exists totals_tables (name text primary key, keys text[] not null, nullable text[] not null, sums text[] not null)`);
  await knex('totals_tables').insert({ name: table.name, keys: table.keys, nullable: table.nullable ?? [], sums: table.sums });
  await knex.raw(`alter table ${table.name} add column if not exists compacted boolean not null default false`);
  await knex.raw(`create index ${table.name}_keys on ${table.name} (${table.keys.join(', ')})`);
  await knex.raw(`create index ${table.name}_new on ${table.name} (${table.keys.join(', ')}) where not compacted`);
}

export async function unregisterTotals(knex: Knex, name: string): Promise<void> {
  await knex('totals_tables').where({ name }).delete();
}

/**
 * A totals table over a source table: per key (columns of the source), `count` (rows) and the sums of `sums`
 * (columns of the source), kept by statement triggers on insert, update and delete, filled once from the rows there
 * are.
 */
export async function createTotals(knex: Knex, table: TotalsTable & { source: string; columnTypes?: Record<string, string> }): Promise<void> {
  const { name, source, keys, sums } = table;
  const type = (c: string) => table.columnTypes?.[c] ?? 'text';
  await knex.raw(`create table ${name} (${[...keys.map((k) => `${k} ${type(k)}${table.nullable?.includes(k) ? '' : ' not null'}`),
    'count bigint not null', ...sums.map((s) => `${s} bigint not null`)].join(', ')})`);
  await registerTotals(knex, { ...table, sums: ['count', ...sums] });
  const grouped = (rows: string, sign: '' | '-') =>
    `select ${keys.join(', ')}, ${sign}count(*), ${sums.map((s) => `${sign}coalesce(sum(${s}), 0)`).join(', ')} from ${rows} group by ${keys.join(', ')}`;
  const insertInto = `insert into ${name} (${[...keys, 'count', ...sums].join(', ')})`;
  const bodies: Record<'insert' | 'update' | 'delete', string> = {
    insert: `${insertInto} ${grouped('new_rows', '')};`,
    delete: `${insertInto} ${grouped('old_rows', '-')};`,
    // Only keys whose totals moved: an update that changes no key column nor summed column adds nothing.
    update: `${insertInto} select ${keys.join(', ')}, sum(count), ${sums.map((s) => `sum(${s})`).join(', ')} from (
        ${grouped('new_rows', '')} union all ${grouped('old_rows', '-')}) d (${[...keys, 'count', ...sums].join(', ')})
      group by ${keys.join(', ')} having sum(count) <> 0 ${sums.map((s) => `or sum(${s}) <> 0`).join(' ')};`,
  };
  for (const event of ['insert', 'update', 'delete'] as const) {
    const fn = `${name}_${event}`;
    await knex.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin ${bodies[event]} return null; end $$`);
    const refs = event === 'insert' ? 'new table as new_rows' : event === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows';
    await knex.raw(`create trigger ${fn} after ${event} on ${source} referencing ${refs} for each statement execute function ${fn}()`);
  }
  await knex.raw(`${insertInto} ${grouped(source, '')}`);
}

export async function dropTotals(knex: Knex, table: { name: string; source: string }): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await knex.raw(`drop trigger if exists ${table.name}_${event} on ${table.source}`);
    await knex.raw(`drop function if exists ${table.name}_${event}()`);
  }
  await unregisterTotals(knex, table.name);
  await knex.raw(`drop table if exists ${table.name}`);
}
