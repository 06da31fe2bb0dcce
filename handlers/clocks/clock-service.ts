// Putting an account on a clock and moving it: the API's /sandbox/clocks operations and `npm run cli -- clock` share these.
import type { Knex } from 'knex';
import { ApiError, conflict, invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { addJob } from '../../runtime/jobs.js';
import { recordEvent } from '../../generated/events.js';
import { ADVANCE_CLOCK, advanceJobKey } from '../../runtime/clock-advance.js';
import { resources } from '../../generated/resources.js';
import type { Clock } from '../../generated/types.js';
import type { ClockRow } from '../../generated/rows.js';
import { clockOfAccount, setAccountsClock } from './clock-accounts.js';

const MAX_ADVANCE_MS = 5 * 366 * 86_400_000;
const WALL_NOW = "date_trunc('milliseconds', pg_catalog.now())";

/** A new clock for the account (and its connected accounts), ready at `frozenTime` (default: now). */
export async function startClock(db: Knex, accountId: string, frozenTime: string | undefined, name: string | null): Promise<Clock> {
  // Serialized per account: two creates at once would both see no clock.
  const account = await db('accounts').where({ id: accountId }).forUpdate().first('id');
  if (!account) throw notFound('account', accountId, 'account_id');
  const existing = await clockOfAccount(db, accountId);
  if (existing) throw conflict(`The account ${accountId} already runs on the clock ${existing}; delete it first`, 'account_id');
  // The wall's time, read by the database: the account's history is dated by it, and a clock may not go behind it.
  const [{ wall }] = (await db.raw(`select ${WALL_NOW} as wall`)).rows;
  const start = frozenTime ?? wall;
  if (Date.parse(start) < Date.parse(wall) - 1000) {
    throw invalid(`frozen_time ${start} is in the past (it is ${wall}): a clock starts at or after the current time`, 'frozen_time');
  }
  const [row] = await db('clocks').insert({ id: newId('clk_'), account_id: accountId, name, frozen_time: start, status: 'ready' }).returning('*');
  await setAccountsClock(db, accountId, row.id);
  return resources.Clock.view(row);
}

/** Starts moving a clock (its row locked by the caller) to `to`; the worker's advance_clock runs what falls due. */
export async function advanceClockTo(db: Knex, clock: ClockRow, to: string): Promise<Clock> {
  if (clock.status !== 'ready') {
    throw new ApiError(400, 'invalid_state', `The clock ${clock.id} is still advancing to ${clock.target_time}; wait until it is ready`, 'status');
  }
  const from = Date.parse(clock.frozen_time);
  const target = Date.parse(to);
  if (!(target > from)) throw invalid(`frozen_time must be later than the clock's time, ${clock.frozen_time}`, 'frozen_time');
  if (target - from > MAX_ADVANCE_MS) throw invalid(`A clock moves at most five years per advance (from ${clock.frozen_time})`, 'frozen_time');
  const [row] = await db('clocks').where({ id: clock.id })
    .update({ status: 'advancing', target_time: new Date(target).toISOString(), updated_at: db.raw(WALL_NOW) }).returning('*');
  // The advance itself runs at the wall's time: it is what moves the clock.
  await addJob(db, ADVANCE_CLOCK, { clock_id: clock.id }, { jobKey: advanceJobKey(clock.id), realTime: true });
  const view = resources.Clock.view(row);
  await recordEvent(db, 'clock.advancing', clock.account_id, view);
  return view;
}

// What waited on the clock keeps its instant, now at the wall's time (a past instant runs at once).
const RELEASE_TIMERS = `select graphile_worker.add_job(t.task, t.payload, run_at => greatest(t.run_at, pg_catalog.now()),
    max_attempts => t.max_attempts, job_key => t.job_key)
  from clock_timers t where t.clock_id = ? order by t.run_at, t.id`;

/** Returns a clock's accounts to real time (its row locked by the caller). */
export async function removeClock(db: Knex, clock: ClockRow): Promise<void> {
  if (clock.status !== 'ready') throw new ApiError(400, 'invalid_state', `The clock ${clock.id} is advancing; delete it once it is ready`, 'status');
  await setAccountsClock(db, clock.account_id, null);
  await db.raw(RELEASE_TIMERS, [clock.id]);
  await db('clock_timers').where({ clock_id: clock.id }).delete();
  await db('clocks').where({ id: clock.id }).update({ deleted_at: db.raw(WALL_NOW) });
}
