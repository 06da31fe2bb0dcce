// Before 2026-08-21 (entry 35) the window was from_date and to_date, UTC dates (YYYY-MM-DD), both inclusive: the
// window runs from from_date's 00:00 UTC to the next day's 00:00 after to_date.
import { invalid } from '../../../runtime/errors.js';
import { parseInstant } from '../../../runtime/instant.js';

const DAY_MS = 86_400_000;

function startOf(date: unknown, param: string): number {
  const ms = typeof date === 'string' ? parseInstant(`${date}T00:00:00Z`) : null;
  if (ms === null) throw invalid(`${param} must be a date (YYYY-MM-DD) between 0001-01-01 and 9999-12-30`, param);
  return ms;
}

export function up(input: { query: Record<string, unknown> }): void {
  const { from_date: fromDate, to_date: toDate } = input.query;
  if (fromDate === undefined || toDate === undefined) return;
  const from = startOf(fromDate, 'from_date');
  const to = startOf(toDate, 'to_date') + DAY_MS;
  if (parseInstant(new Date(to).toISOString()) === null) throw invalid('to_date must be at most 9999-12-30', 'to_date');
  if (to <= from) throw invalid('to_date must not be before from_date', 'to_date');
  delete input.query.from_date;
  delete input.query.to_date;
  input.query.from = new Date(from).toISOString();
  input.query.to = new Date(to).toISOString();
}
