// The database's own indexes, read once per process and database: what a list may rely on to give its order. A list
// led by its account (pagination.ts Leading) needs an index holding the account column and then the sort key; the
// spec does not say which tables have one (their migrations do), so the catalogue is asked instead of a hand-kept list.
import type { Knex } from 'knex';
import { query } from './request-db.js';
import type { Leading } from './pagination.js';

/** Each table's plain btree indexes (valid, not partial, no expressions), as their columns in order. */
type Catalog = Map<string, string[][]>;

const INDEXES = `
  select c.relname as "table", array_agg(a.attname::text order by k.n) as columns
  from pg_index i
  join pg_class c on c.oid = i.indrelid
  join pg_namespace ns on ns.oid = c.relnamespace and ns.nspname = current_schema()
  join pg_class ic on ic.oid = i.indexrelid
  join pg_am am on am.oid = ic.relam and am.amname = 'btree'
  cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, n)
  left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum and k.attnum > 0
  where i.indisvalid and i.indpred is null and i.indexprs is null
  group by i.indexrelid, c.relname`;

// By the knex client: a request's bound handle (request-db.ts) shares its client with the pool it came from.
const catalogs = new WeakMap<object, Promise<Catalog>>();

function catalogOf(db: Knex): Promise<Catalog> {
  let catalog = catalogs.get(db.client);
  if (!catalog) {
    catalog = query<{ table: string; columns: string[] }>(db, INDEXES, []).then((rows) => {
      const byTable: Catalog = new Map();
      for (const { table, columns } of rows) byTable.set(table, [...(byTable.get(table) ?? []), columns]);
      return byTable;
    });
    // A failed read is asked again by the next list, not remembered.
    catalog.catch(() => catalogs.delete(db.client));
    catalogs.set(db.client, catalog);
  }
  return catalog;
}

/** Whether `table` has an index whose first columns are `columns`, in this order. */
async function hasIndexLeading(db: Knex, table: string, columns: readonly string[]): Promise<boolean> {
  const indexes = (await catalogOf(db)).get(table) ?? [];
  return indexes.some((index) => columns.every((column, i) => index[i] === column));
}

/**
 * Holds a list's `column` to `value`: as the page's leading column (pagination.ts Leading, returned for paginate) when
 * an index of the listed table holds that column and then `sortColumn`, else as an equality on `q` (also without a
 * sort column to lead: a walked list, whose walk's index holds the column). Both columns are `table.column` of the
 * listed table.
 */
export async function holdColumn(db: Knex, q: Knex.QueryBuilder, column: string, sortColumn: string | undefined,
  value: string): Promise<Leading | undefined> {
  const [table, held] = column.split('.');
  const [sortTable, sort] = sortColumn?.split('.') ?? [];
  const indexed = held !== undefined && sort !== undefined && sortTable === table && await hasIndexLeading(db, table, [held, sort]);
  if (indexed) return { column, value };
  q.where(column, value);
  return undefined;
}
