// Written by hand, not declared plain: not a table's rows but a day per page row, summed from daily totals and the
// window's partial days' postings.
import type { Handler } from '../../generated/handler.js';
import type { FinancialReportDay } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { isInstant } from '../../runtime/instant.js';
import { pageWindow } from '../../runtime/pagination.js';
import { currenciesOf, dayRows, windowParts, windowValues, type DayRow } from './report-rows.js';

/** A page cursor's day (its sort value, decoded by the page's window): a real date, else the cursor is not one of
 * this list's (400 naming it). */
function cursorDay(cursor: [string | number, string] | null, param: 'after' | 'before'): string | null {
  if (!cursor) return null;
  const [day] = cursor;
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day) || !isInstant(`${day}T00:00:00Z`)) {
    throw invalid(`The cursor in '${param}' does not belong to this list; pass a cursor from a previous page of it`, param);
  }
  return day;
}

/**
 * GET /financial_reports/breakdown: the report per UTC day with entries, keyset pages of days (oldest first by
 * default). A page reads the window's daily totals (a row per day and row type) and its partial days' postings, as
 * the report does, and sums only its own days: its cost follows the window, never the account's history.
 */
export const listFinancialReportBreakdown: Handler<'listFinancialReportBreakdown'> = async ({ query }, ctx) => {
  const parts = windowParts(query.from, query.to);
  type Item = FinancialReportDay & { id: string };
  const window = pageWindow<Item>(query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction, sortColumn: 'date', idColumn: 'date', sortKind: 'text',
    sortValue: (day) => day.date,
  });
  // Days after the cursor are later ones in ascending lists, earlier ones in descending lists.
  const after = cursorDay(window.after, 'after');
  const before = cursorDay(window.before, 'before');
  const [above, below] = query.direction === 'asc' ? [after, before] : [before, after];
  const values = [...windowValues(query.account_id, parts, query.currency), above, below, window.limit];
  const rows = await dayRows(ctx.db, values, window.order);
  const byDay = new Map<string, DayRow[]>();
  for (const row of rows) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);
  const days: Item[] = [...byDay].map(([date, of]) => ({ id: date, object: 'financial_report_day' as const, date, currencies: currenciesOf(of) }));
  const page = window.finish(days);
  return { data: page.rows.map(({ id: _id, ...day }) => day), page_info: page.page_info };
};
