// Keyset pagination on (sort key, id) with opaque cursors: page 10,000 costs what page 1 costs.
import type { Knex } from 'knex';
import { invalid } from './errors.js';
import { parseInstant } from './instant.js';
import { isStorableText } from './storable-text.js';
import { selectBuilt } from './request-db.js';

export interface PageArgs {
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

export interface PageInfo {
  end_cursor: string | null;
  start_cursor: string | null;
  has_next_page: boolean;
  has_previous_page: boolean;
}

export type SortKind = 'timestamp' | 'integer' | 'text';

export interface PageOptions<Row> {
  /** the column lists are ordered by; ties are broken by `id` */
  sortColumn?: string;
  idColumn?: string;
  direction?: 'asc' | 'desc';
  defaultSize: number;
  /** the sort key's value on a row, as stored in cursors */
  sortValue?: (row: Row) => string | number;
  /** what the sort key holds (default timestamp): a cursor whose value is not of this kind is a 400, never a
   * value of the wrong type sent to the database */
  sortKind?: SortKind;
  /** an equality filter on the column that an index of the list holds right before the sort key (owner, column,
   * sort key, id); the list's own query must not test it (see paginate) */
  walk?: Walk;
}

/**
 * The values an equality filter allows on a column an index orders ahead of the sort key. Written as `column =
 * value`, PostgreSQL drops the column from the order (it is constant) and is then free to walk any index in sort-key
 * order, testing the filter row by row: it does when its statistics say most rows match, and a page then costs every
 * newer row that does not (64,000 newer pending payments: 40 ms instead of 0.1). Walked instead one value at a time,
 * as the range [value, value] ordered by the column first, only the index holding the column before the sort key
 * gives that order without sorting every match: the page reads about a page of index, whatever the statistics.
 */
export interface Walk {
  /** the column as SQL (table.column), holding text */
  column: string;
  values: readonly string[];
}

/** Longest text sort value and id a cursor may carry: more than any listed column holds, so a longer one is forged. */
const MAX_TEXT_LENGTH = 256;
const MAX_ID_LENGTH = 64;

const isStorableString = (v: unknown, maxLength: number): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= maxLength && isStorableText(v);

/**
 * The cursor's sort value as the value the database compares, or null when it is not of the list's kind. A cursor
 * is a client's text: decoded, it is checked as any input is (a real instant, a safe integer, storable text).
 */
function typedValue(value: unknown, kind: SortKind): string | number | null {
  if (kind === 'integer') return Number.isSafeInteger(value) ? (value as number) : null;
  if (kind === 'text') return typeof value === 'string' && value.length <= MAX_TEXT_LENGTH && isStorableText(value) ? value : null;
  const instant = typeof value === 'string' ? parseInstant(value) : null;
  return instant === null ? null : new Date(instant).toISOString();
}

export const encodeCursor = (value: string | number, id: string) =>
  Buffer.from(JSON.stringify([value, id])).toString('base64url');

/** A cursor from a previous page of this list and ordering, decoded and typed; anything else is a 400 naming it. */
export function decodeCursor(cursor: string, param: 'after' | 'before', kind: SortKind): [string | number, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) {
    throw invalid(`The cursor in '${param}' is not valid; pass a start_cursor or end_cursor from a previous page`, param);
  }
  const value = typedValue(parsed[0], kind);
  if (value === null || !isStorableString(parsed[1], MAX_ID_LENGTH)) {
    throw invalid(`The cursor in '${param}' does not belong to this list and ordering; pass a cursor from a previous page of it`, param);
  }
  return [value, parsed[1]];
}

/** One page's bounds, for a statement built by hand: the keyset conditions (knex `?` bindings) every branch of it
 * applies, the order and limit each applies, and what turns the rows fetched that way into the page. */
export interface PageWindow<Row> {
  where: { sql: string; bindings: (string | number)[] }[];
  order: 'asc' | 'desc';
  /** the page size plus one, which tells whether there is more */
  limit: number;
  finish(fetched: Row[]): { rows: Row[]; page_info: PageInfo };
}

export function pageWindow<Row extends { id: string }>(args: PageArgs, options: PageOptions<Row>): PageWindow<Row> {
  if (args.first !== undefined && args.last !== undefined) throw invalid('Pass either first or last, not both', 'last');
  const sort = options.sortColumn ?? 'created_at';
  const idCol = options.idColumn ?? 'id';
  const desc = (options.direction ?? 'desc') === 'desc';
  const sortValue = options.sortValue ?? ((row: Row) => (row as unknown as Record<string, string>)[sort.split('.').pop()!]);
  const fromEnd = args.last !== undefined;
  const size = args.last ?? args.first ?? options.defaultSize;

  const where: PageWindow<Row>['where'] = [];
  // Rows "after" a cursor come later in the list's order; with desc that means smaller keys.
  const kind = options.sortKind ?? 'timestamp';
  // An integer cursor is compared as bigint: a safe integer may exceed an int4 sort column (promo redemptions),
  // whose own type the parameter would otherwise take.
  const value = kind === 'integer' ? '?::bigint' : '?';
  if (args.after) {
    const [v, id] = decodeCursor(args.after, 'after', kind);
    where.push({ sql: `(${sort}, ${idCol}) ${desc ? '<' : '>'} (${value}, ?)`, bindings: [v, id] });
  }
  if (args.before) {
    const [v, id] = decodeCursor(args.before, 'before', kind);
    where.push({ sql: `(${sort}, ${idCol}) ${desc ? '>' : '<'} (${value}, ?)`, bindings: [v, id] });
  }
  const forward = fromEnd ? !desc : desc;
  const cursor = (row: Row | undefined) => (row ? encodeCursor(sortValue(row), row.id) : null);
  return {
    where,
    order: forward ? 'desc' : 'asc',
    limit: size + 1,
    finish(fetched) {
      const more = fetched.length > size;
      const rows = fetched.slice(0, size);
      if (fromEnd) rows.reverse();
      return {
        rows,
        page_info: {
          start_cursor: cursor(rows[0]),
          end_cursor: cursor(rows[rows.length - 1]),
          has_next_page: fromEnd ? !!args.before : more,
          has_previous_page: fromEnd ? more : !!args.after,
        },
      };
    },
  };
}

export async function paginate<Row extends { id: string }>(
  query: Knex.QueryBuilder,
  args: PageArgs,
  options: PageOptions<Row>,
): Promise<{ rows: Row[]; page_info: PageInfo }> {
  const window = pageWindow(args, options);
  const sort = options.sortColumn ?? 'created_at';
  const id = options.idColumn ?? 'id';
  const page = (q: Knex.QueryBuilder) => {
    for (const { sql, bindings } of window.where) q.whereRaw(sql, bindings);
    return q.orderBy([sort, id].map((column) => ({ column, order: window.order }))).limit(window.limit);
  };
  if (!options.walk) return window.finish(await selectBuilt<Row>(page(query.clone())));
  const { column, values } = options.walk;
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return window.finish([]);
  const walked = (q: Knex.QueryBuilder, value: string | Knex.Raw) =>
    page(q.whereRaw(`${column} >= ? and ${column} <= ?`, [value, value]).orderByRaw(`${column} ${window.order}`));
  if (distinct.length === 1) return window.finish(await selectBuilt<Row>(walked(query.clone(), distinct[0])));
  // Several values: the one page query, planned once, run for each value (a UNION ALL of one branch per value
  // planned each branch: 3.4 times the PostgreSQL CPU of one value's page for three), the pages merged. The rows
  // keep their names, which sortValue reads.
  const { client } = query as unknown as { client: Knex.Client };
  const each = walked(query.clone(), client.raw('walked.value'));
  return window.finish(await selectBuilt<Row>(siblingOf(query).select('page.*')
    .fromRaw(client.raw('unnest(?::text[]) as walked(value) cross join lateral ? as page', [distinct, each]))
    .orderBy([sort, id].map((c) => ({ column: `page.${c.split('.').pop()!}`, order: window.order }))).limit(window.limit)));
}

/** A new builder on the connection (a request's, a transaction's) `q` runs on. */
function siblingOf(q: Knex.QueryBuilder): Knex.QueryBuilder {
  const { client, _connection } = q as unknown as { client: { queryBuilder(): Knex.QueryBuilder }; _connection?: unknown };
  const sibling = client.queryBuilder();
  return _connection === undefined ? sibling : sibling.connection(_connection as never);
}

/** A page of a short list already in memory, in its order (reference tables): cursors carry the position and id,
 * so pages behave as the database's do. */
export function paginateArray<Item extends { id: string }>(items: Item[], args: PageArgs, defaultSize: number): { data: Item[]; page_info: PageInfo } {
  if (args.first !== undefined && args.last !== undefined) throw invalid('Pass either first or last, not both', 'last');
  const size = args.last ?? args.first ?? defaultSize;
  let from = 0;
  let to = items.length;
  if (args.after) from = Number(decodeCursor(args.after, 'after', 'integer')[0]) + 1;
  if (args.before) to = Math.min(to, Number(decodeCursor(args.before, 'before', 'integer')[0]));
  const start = args.last !== undefined ? Math.max(from, to - size) : from;
  const end = Math.min(to, start + size);
  const data = items.slice(start, Math.max(start, end));
  const cursor = (i: number) => encodeCursor(i, items[i].id);
  return {
    data,
    page_info: {
      start_cursor: data.length ? cursor(start) : null,
      end_cursor: data.length ? cursor(start + data.length - 1) : null,
      has_next_page: start + data.length < items.length,
      has_previous_page: start > 0,
    },
  };
}
