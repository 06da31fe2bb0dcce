// The accounts a time-driven sweep may touch (clock-scope.ts), written so that its query stays cheap on either side:
// at real time inClockScope's probe per candidate row (the sweep walks its due index in time order); on a clock, the
// clock's own accounts (accounts_clock: a handful), so the query starts from them and reads only their rows through
// an (account_id, due time) index (migrations/535_clock_sweep_indexes.ts), however many rows the other accounts have:
// walking the due-time index instead would read every real-time account's waiting rows, all of them "due" at a clock
// set ahead of the wall. The clock is the code's context's (runtime/clock.ts), which the session follows.
import { currentClock } from '../../runtime/clock.js';
import { inClockScope } from './clock-scope.js';

export interface SqlCondition { sql: string; bindings: string[] }

/** An SQL boolean, with its bindings: the account in `accountIdColumn` is in the current clock scope. */
export function sweepScope(accountIdColumn: string): SqlCondition {
  const clock = currentClock();
  if (!clock) return { sql: inClockScope(accountIdColumn), bindings: [] };
  return { sql: `${accountIdColumn} in (select a_scope.id from accounts a_scope where a_scope.clock_id = ?)`, bindings: [clock.clockId] };
}

/** An instant read from the database as ISO 8601, or null. */
export const isoOrNull = (value: string | Date | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());
