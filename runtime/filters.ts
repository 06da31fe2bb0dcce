// Filters of list operations. One table serves a filter's singular form and the plural form older versions took
// (statuses[] for status): a value is `column = value`, a list `column IN (...)` (an empty list matches nothing),
// absent is no filter.
import type { Knex } from 'knex';
import type { Walk } from './pagination.js';

export function whereEqual(q: Knex.QueryBuilder, input: Record<string, unknown>, columns: Record<string, string>): void {
  for (const [name, column] of Object.entries(columns)) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) q.whereIn(column, value);
    else q.where(column, value as string | number | boolean);
  }
}

/**
 * What the equality filters named allow together on their one column (statuses[] and status both narrow it), as a
 * walk for paginate; undefined when none is given. A value is a list of one, an empty list allows nothing.
 */
export function walkOf(input: Record<string, unknown>, column: string, names: readonly string[]): Walk | undefined {
  let values: string[] | undefined;
  for (const name of names) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    const given = [value].flat().map(String);
    values = values === undefined ? given : values.filter((v) => given.includes(v));
  }
  return values === undefined ? undefined : { column, values };
}

/** A LIKE pattern matching `text` anywhere, with %, _ and the escape character itself taken literally. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A declared filter (generated/plain-operations.ts): the query parameter it reads and the SQL it tests, precomputed
 * by the generator. equal: `= value`, or IN for a list; keyed: the same, on a column an index holds before the sort
 * key, which the page walks (paginate's walk; applyFilters leaves it); after, before: strict bounds; contains: any of
 * the expressions holds the text, case-insensitively, with % and _ taken literally; exists: the one expression, an
 * EXISTS over a related table, holds with the value for its `?`.
 */
export interface Filter {
  param: string;
  test: 'equal' | 'keyed' | 'after' | 'before' | 'contains' | 'exists';
  sql: string[];
  /** an empty text narrows nothing, as though it were not sent */
  emptyUnfiltered?: true;
}

const BOUND = { after: '>', before: '<' } as const;

export function applyFilters(q: Knex.QueryBuilder, input: Record<string, unknown>, filters: readonly Filter[]): void {
  for (const { param, test, sql, emptyUnfiltered } of filters) {
    const value = input[param];
    if (value === undefined || value === null || test === 'keyed') continue;
    if (emptyUnfiltered && value === '') continue;
    if (test === 'exists') {
      q.whereRaw(sql[0], [value as string]);
    } else if (test === 'contains') {
      const pattern = likeContaining(String(value).toLowerCase());
      q.where((w) => sql.forEach((s) => w.orWhereRaw(`lower(coalesce(${s}, '')) like ? escape '\\'`, [pattern])));
    } else if (test !== 'equal') {
      q.whereRaw(`${sql[0]} ${BOUND[test]} ?`, [value as string]);
    } else if (!Array.isArray(value)) {
      q.whereRaw(`${sql[0]} = ?`, [value as string]);
    } else if (value.length === 0) {
      q.whereRaw('false');
    } else {
      q.whereRaw(`${sql[0]} in (${value.map(() => '?').join(', ')})`, value);
    }
  }
}

/** The walk of the list's keyed filter, when one is declared and given. */
export function keyedWalk(input: Record<string, unknown>, filters: readonly Filter[]): Walk | undefined {
  const keyed = filters.find((f) => f.test === 'keyed');
  return keyed && walkOf(input, keyed.sql[0], [keyed.param]);
}
