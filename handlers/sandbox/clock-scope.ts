// Which accounts a time-driven sweep may touch: on a sandbox clock (runtime/clock.ts), that clock's accounts, at its
// time; at real time, the accounts on no clock. The same sweep then serves the cron and a clock's advance.

/** An SQL boolean: the account in `accountIdColumn` runs on the current clock (or on none, outside a clock). Accounts
 * are found by primary key; accounts on no clock pay one index probe per candidate row. */
export const inClockScope = (accountIdColumn: string): string =>
  `(select a_clock.clock_id from accounts a_clock where a_clock.id = ${accountIdColumn}) is not distinct from nullif(current_setting('app.clock_id', true), '')`;
