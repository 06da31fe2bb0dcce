// Clocks: a context in which "now" is a clock's frozen time instead of the wall's. Code reads time through it (SQL
// `now()`, `clockNow()` here), so the same business code runs at real time or on a clock that an integrator moves
// forward (runtime/clock-advance.ts). Outside a clock nothing changes and nothing is spent: one property compare per
// connection lent by the pool.
//
// In the database a clocked session has `app.clock_id` and `app.clock_now` set, and its search_path puts the schema
// clock_time first, whose now() reads app.clock_now; so every unqualified now() in the code's SQL, and the column
// defaults (public.clock_now(), migrations/525_clocks.ts), follow the clock without naming it.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ClockContext {
  clockId: string;
  /** the clock's time, ISO 8601 */
  now: string;
}

const context = new AsyncLocalStorage<ClockContext>();

/** The clock the current code runs on, or undefined at real time. */
export const currentClock = (): ClockContext | undefined => context.getStore();

/** Business time: the clock's when running on one, else the wall's. */
export function clockNow(): Date {
  const clock = context.getStore();
  return clock ? new Date(clock.now) : new Date();
}

/** Runs `work` on a clock at `now`: its queries and the jobs it adds see that time. */
export function runOnClock<T>(clock: ClockContext, work: () => Promise<T>): Promise<T> {
  return context.run(clock, work);
}

/** Runs `work` at real time even inside a clock (what outside systems such as webhook receivers see). */
export function runAtRealTime<T>(work: () => Promise<T>): Promise<T> {
  return context.exit(work) as Promise<T>;
}

// --- the database session's side ---------------------------------------------------------------------------------

const SESSION_CLOCK = Symbol('the clock this pg connection is set to');
type Settable = { query(text: string, values: unknown[]): Promise<unknown>; [SESSION_CLOCK]?: string };

const REAL_TIME = '';
const keyOf = (clock: ClockContext | undefined) => (clock ? `${clock.clockId}@${clock.now}` : REAL_TIME);

const SET_CLOCK = `select set_config('app.clock_id', $1, false), set_config('app.clock_now', $2, false),
  set_config('search_path', $3, false)`;
const CLOCKED_PATH = 'clock_time, pg_catalog, "$user", public';
const REAL_PATH = '"$user", public';

/** Puts the rest of a transaction on `clock` (SET LOCAL: the connection is back as it was at its end). */
export async function setTransactionClock(trx: { raw(sql: string, values: unknown[]): PromiseLike<unknown> }, clock: ClockContext): Promise<void> {
  await trx.raw(`select set_config('app.clock_id', ?, true), set_config('app.clock_now', ?, true), set_config('search_path', ?, true)`,
    [clock.clockId, clock.now, CLOCKED_PATH]);
}

/** Sets a connection to the current context's clock (or back to real time) when it is set otherwise: called for each
 * connection the pool lends (runtime/db.ts). A connection that never ran on a clock costs one comparison. */
export function alignSession(conn: Settable): Promise<void> | undefined {
  const clock = context.getStore();
  const key = keyOf(clock);
  if ((conn[SESSION_CLOCK] ?? REAL_TIME) === key) return undefined;
  return conn.query(SET_CLOCK, clock ? [clock.clockId, clock.now, CLOCKED_PATH] : ['', '', REAL_PATH]).then(() => {
    conn[SESSION_CLOCK] = key;
  });
}
