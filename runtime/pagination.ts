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
  /** the one value the list holds a column to (the account named), when an index holds that column first and the
   * table also has an index on the sort key alone; see Leading */
  leading?: Leading;
}

/**
 * A column the list holds to one value, ahead of everything in the order. Written as `column = value`, PostgreSQL
 * treats the column as constant and may walk an index on the sort key alone (payments_created_at_id_index, for the
 * platform's lists across accounts), testing the column row by row: when the account's rows are older than other
 * accounts' newer ones, a page then costs every one of those (34 ms over 83,000 buffers for the bench's connected
 * account once a second account had 36,000 newer payments, 0.4 ms led). Written as the range [value, value] and
 * ordered first, only an index holding the column first gives the order, and the page reads about a page of it.
 */
export interface Leading {
  /** the column as SQL (table.column), holding text */
  column: string;
  value: string;
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

/**
 * One page's bounds: the one place a page's window is worked out, for `paginate` (a query), `paginateArray` (a list
 * in memory) and statements built by hand (a merge of index walks, batches unnested). It gives the keyset conditions
 * (knex `?` bindings) every branch of a statement applies, the same test on a row in memory (`admits`), the order
 * and limit each applies, and what turns the rows fetched that way into the page.
 */
export interface PageWindow<Row> {
  where: { sql: string; bindings: (string | number)[] }[];
  /** whether a row with this sort value and id lies within the cursors' bounds (`where`, in memory) */
  admits(value: string | number, id: string): boolean;
  /** the cursors' (sort value, id), decoded and typed */
  after: [string | number, string] | null;
  before: [string | number, string] | null;
  order: 'asc' | 'desc';
  /** the page size plus one, which tells whether there is more */
  limit: number;
  finish(fetched: Row[]): { rows: Row[]; page_info: PageInfo };
}

/** (value, id) against a cursor's: negative before it, positive after it, in ascending order. */
function compareKeys(value: string | number, id: string, [boundValue, boundId]: [string | number, string]): number {
  if (value !== boundValue) return value < boundValue ? -1 : 1;
  return id === boundId ? 0 : id < boundId ? -1 : 1;
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
  const after = args.after ? decodeCursor(args.after, 'after', kind) : null;
  const before = args.before ? decodeCursor(args.before, 'before', kind) : null;
  if (after) where.push({ sql: `(${sort}, ${idCol}) ${desc ? '<' : '>'} (${value}, ?)`, bindings: [...after] });
  if (before) where.push({ sql: `(${sort}, ${idCol}) ${desc ? '>' : '<'} (${value}, ?)`, bindings: [...before] });
  // the same bounds as `where`, in the list's ascending terms: -1 before a cursor, 1 after it
  const later = desc ? -1 : 1;
  const forward = fromEnd ? !desc : desc;
  const cursor = (row: Row | undefined) => (row ? encodeCursor(sortValue(row), row.id) : null);
  return {
    where,
    after,
    before,
    admits: (v, id) => (!after || compareKeys(v, id, after) === later) && (!before || compareKeys(v, id, before) === -later),
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
  const { leading } = options;
  // A led page the list filters no further (but for one walked value) has one good plan whatever the account: the
  // range of the index holding the account (and the walked column) and then the sort key. It is prepared, its values
  // hidden from the planner as `(select $n)`, so that PostgreSQL settles on that plan once per connection instead of
  // planning each page (named but with the account as a plain value, it kept planning every execution: the value's
  // selectivity made each custom plan look cheaper). A page filtered otherwise stays planned for its values: a rare
  // value may be cheaper to find by another index.
  const preparable = leading !== undefined && !filtersRows(query);
  const page = (q: Knex.QueryBuilder, walked?: { column: string; value: string | Knex.Raw }, prepared = false) => {
    const value = prepared ? '(select ?::text)' : '?';
    for (const { sql, bindings } of window.where) q.whereRaw(sql, bindings);
    // A walked column's order already takes an index holding the leading column before it: there, the leading
    // column is a plain equality (as a range too, PostgreSQL misjudged both and sorted the whole table).
    if (leading && walked) q.whereRaw(`${leading.column} = ${value}`, [leading.value]);
    else if (leading) q.whereRaw(`${leading.column} >= ${value} and ${leading.column} <= ${value}`, [leading.value, leading.value]).orderByRaw(`${leading.column} ${window.order}`);
    if (walked) q.whereRaw(`${walked.column} >= ${value} and ${walked.column} <= ${value}`, [walked.value, walked.value]).orderByRaw(`${walked.column} ${window.order}`);
    return q.orderBy([sort, id].map((column) => ({ column, order: window.order }))).limit(window.limit);
  };
  if (!options.walk) return window.finish(await selectBuilt<Row>(page(query.clone(), undefined, preparable), preparable));
  const { column, values } = options.walk;
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return window.finish([]);
  const walked = (q: Knex.QueryBuilder, value: string | Knex.Raw, prepared = false) => page(q, { column, value }, prepared);
  if (distinct.length === 1) return window.finish(await selectBuilt<Row>(walked(query.clone(), distinct[0], preparable), preparable));
  // Several values: the one page query, planned once, run for each value (a UNION ALL of one branch per value
  // planned each branch: 3.4 times the PostgreSQL CPU of one value's page for three), the pages merged. The rows
  // keep their names, which sortValue reads.
  const { client } = query as unknown as { client: Knex.Client };
  const each = walked(query.clone(), client.raw('walked.value'));
  return window.finish(await selectBuilt<Row>(siblingOf(query).select('page.*')
    .fromRaw(client.raw('unnest(?::text[]) as walked(value) cross join lateral ? as page', [distinct, each]))
    .orderBy([sort, id].map((c) => ({ column: `page.${c.split('.').pop()!}`, order: window.order }))).limit(window.limit)));
}

/** Whether the list's own query tests rows (a where or having of its own, before the page's window and lead). */
function filtersRows(q: Knex.QueryBuilder): boolean {
  const { _statements: statements } = q as unknown as { _statements: { grouping: string }[] };
  return statements.some((s) => s.grouping === 'where' || s.grouping === 'having');
}

/** A new builder on the connection (a request's, a transaction's) `q` runs on. */
function siblingOf(q: Knex.QueryBuilder): Knex.QueryBuilder {
  const { client, _connection } = q as unknown as { client: { queryBuilder(): Knex.QueryBuilder }; _connection?: unknown };
  const sibling = client.queryBuilder();
  return _connection === undefined ? sibling : sibling.connection(_connection as never);
}

/**
 * A page of a short list already in memory, in its order (a reference table, a catalogue, an array computed per
 * request): the window of a table's list (pageWindow) with each item's position as its sort key, so cursors carry
 * the position and id. An array knows what lies outside the cursors too: has_previous_page says whether any item
 * precedes the page, has_next_page whether any follows it (an empty page: the place after the `after` cursor).
 */
export function paginateArray<Item extends { id: string }>(items: Item[], args: PageArgs, defaultSize: number): { data: Item[]; page_info: PageInfo } {
  const positioned = items.map((item, position) => ({ id: item.id, position, item }));
  const window = pageWindow<(typeof positioned)[number]>(args, {
    defaultSize, direction: 'asc', sortKind: 'integer', sortValue: (p) => p.position,
  });
  const inOrder = window.order === 'asc' ? positioned : [...positioned].reverse();
  const { rows, page_info } = window.finish(inOrder.filter((p) => window.admits(p.position, p.id)).slice(0, window.limit));
  const first = rows.length ? rows[0].position : window.after ? Number(window.after[0]) + 1 : 0;
  const next = rows.length ? rows[rows.length - 1].position + 1 : first;
  return {
    data: rows.map((p) => p.item),
    page_info: { ...page_info, has_next_page: next < items.length, has_previous_page: first > 0 },
  };
}
