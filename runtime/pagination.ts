// Keyset pagination on (sort key, id) with opaque cursors: page 10,000 costs what page 1 costs.
import type { Knex } from 'knex';
import { invalid } from './errors.js';

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
  sortKind?: 'timestamp' | 'integer' | 'text';
}

function fitsKind(value: string | number, kind: 'timestamp' | 'integer' | 'text'): boolean {
  if (kind === 'integer') return Number.isSafeInteger(value);
  if (typeof value !== 'string') return false;
  return kind === 'text' || (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)));
}

function cursorValue(cursor: string, param: 'after' | 'before', kind: 'timestamp' | 'integer' | 'text'): [string | number, string] {
  const decoded = decodeCursor(cursor, param);
  if (!fitsKind(decoded[0], kind)) {
    throw invalid(`The cursor in '${param}' does not belong to this list and ordering; pass a cursor from a previous page of it`, param);
  }
  return decoded;
}

export const encodeCursor = (value: string | number, id: string) =>
  Buffer.from(JSON.stringify([value, id])).toString('base64url');

export function decodeCursor(cursor: string, param: string): [string | number, string] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && ['string', 'number'].includes(typeof parsed[0]) && typeof parsed[1] === 'string') {
      return parsed as [string | number, string];
    }
  } catch {
    // fall through to the 400 below
  }
  throw invalid(`The cursor in '${param}' is not valid; pass a start_cursor or end_cursor from a previous page`, param);
}

export async function paginate<Row extends { id: string }>(
  query: Knex.QueryBuilder,
  args: PageArgs,
  options: PageOptions<Row>,
): Promise<{ rows: Row[]; page_info: PageInfo }> {
  if (args.first !== undefined && args.last !== undefined) throw invalid('Pass either first or last, not both', 'last');
  const sort = options.sortColumn ?? 'created_at';
  const idCol = options.idColumn ?? 'id';
  const desc = (options.direction ?? 'desc') === 'desc';
  const sortValue = options.sortValue ?? ((row: Row) => (row as unknown as Record<string, string>)[sort.split('.').pop()!]);
  const fromEnd = args.last !== undefined;
  const size = args.last ?? args.first ?? options.defaultSize;

  const q = query.clone();
  // Rows "after" a cursor come later in the list's order; with desc that means smaller keys.
  const kind = options.sortKind ?? 'timestamp';
  if (args.after) {
    const [v, id] = cursorValue(args.after, 'after', kind);
    q.whereRaw(`(${sort}, ${idCol}) ${desc ? '<' : '>'} (?, ?)`, [v, id]);
  }
  if (args.before) {
    const [v, id] = cursorValue(args.before, 'before', kind);
    q.whereRaw(`(${sort}, ${idCol}) ${desc ? '>' : '<'} (?, ?)`, [v, id]);
  }
  const forward = fromEnd ? !desc : desc;
  q.orderBy([{ column: sort, order: forward ? 'desc' : 'asc' }, { column: idCol, order: forward ? 'desc' : 'asc' }]);
  q.limit(size + 1);
  const fetched: Row[] = await q;
  const more = fetched.length > size;
  const rows = fetched.slice(0, size);
  if (fromEnd) rows.reverse();
  const cursor = (row: Row | undefined) => (row ? encodeCursor(sortValue(row), row.id) : null);
  return {
    rows,
    page_info: {
      start_cursor: cursor(rows[0]),
      end_cursor: cursor(rows[rows.length - 1]),
      has_next_page: fromEnd ? !!args.before : more,
      has_previous_page: fromEnd ? more : !!args.after,
    },
  };
}
