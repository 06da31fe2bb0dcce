// Which accounts a time-driven sweep may touch: on a sandbox clock (runtime/clock.ts), that clock's accounts, at its
// time; at real time, the accounts on no clock. The same sweep then serves the cron and a clock's advance. Written so
// that a sweep's query stays cheap on either side: at real time one index probe per candidate row (the sweep walks its
// due index in time order); on a clock, the clock's own accounts (accounts_clock: a handful), so the query starts from
// them and reads only their rows through an (account_id, due time) index (migrations/535_clock_sweep_indexes.ts),
// however many rows the other accounts have: walking the due-time index instead would read every real-time account's
// waiting rows, all of them "due" at a clock set ahead of the wall. The clock is the code's context's, which the
// session follows.
import { currentClock } from '../../runtime/clock.js';

export interface SqlCondition { sql: string; bindings: string[] }

/** An SQL boolean: the account in `accountIdColumn` runs on the session's clock (or on none, outside a clock). */
export const inClockScope = (accountIdColumn: string): string =>
  `(select a_clock.clock_id from accounts a_clock where a_clock.id = ${accountIdColumn}) is not distinct from nullif(current_setting('app.clock_id', true), '')`;

/** The clock whose accounts a sweep walks one by one (a lateral join per account, as the membership sweep does), or
 * null at real time, where the sweep walks its due index with `inClockScope`. */
export const sweepClockId = (): string | null => currentClock()?.clockId ?? null;

/** An SQL boolean, with its bindings: the account in `accountIdColumn` is in the current clock scope. */
export function sweepScope(accountIdColumn: string): SqlCondition {
  const clockId = sweepClockId();
  if (!clockId) return { sql: inClockScope(accountIdColumn), bindings: [] };
  return { sql: `${accountIdColumn} in (select a_scope.id from accounts a_scope where a_scope.clock_id = ?)`, bindings: [clockId] };
}

/** An instant read from the database as ISO 8601, or null. */
export const isoOrNull = (value: string | Date | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());
