// Equality filters of list operations. One table serves a filter's singular form and the plural form older versions
// took (statuses[] for status): a value is `column = value`, a list `column IN (...)` (an empty list matches
// nothing), absent is no filter.
import type { Knex } from 'knex';

export function whereEqual(q: Knex.QueryBuilder, input: Record<string, unknown>, columns: Record<string, string>): void {
  for (const [name, column] of Object.entries(columns)) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) q.whereIn(column, value);
    else q.where(column, value as string | number | boolean);
  }
}
