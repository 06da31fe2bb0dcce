// The period sweep: finds memberships whose due_at has come, on the partial index memberships_due_at, in batches in
// due order, and runs each one's step (period-step.ts). From the cron (every minute, real time: accounts on no clock)
// it queues one membership_period_step job per membership, keyed by membership and due instant, so workers share
// the work and a membership queued twice is stepped once; from a sandbox clock's advance (runtime/clock-advance.ts:
// that clock's accounts, at its time) it runs the steps in place, in due order. Its cost follows the rows that are
// due, not the memberships that exist.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { ClockSweep } from '../../runtime/clock-advance.js';
import { addJob } from '../../runtime/jobs.js';
import { inClockScope, sweepClockId } from '../shared/sweep-scope.js';
import { MEMBERSHIP_PERIOD_STEP, membershipPeriodStep, periodStepJobKey } from './period-step.js';

export const MEMBERSHIP_PERIOD_SWEEP = 'membership_period_sweep';
const BATCH = 500;

// Keyset on (due_at, id): each batch starts after the last one, so a batch whose jobs are still queued is not read again.
// At real time: along memberships_due_at, taking the accounts on no clock. On a clock: from the clock's few accounts,
// each along memberships_account_due_at, so the memberships due at real time are never read.
const DUE_AT_REAL_TIME = `select m.id, m.due_at from memberships m
  where m.due_at is not null and m.due_at <= now() and (m.due_at, m.id) > (?::timestamptz, ?)
    and ${inClockScope('m.account_id')}
  order by m.due_at, m.id limit ${BATCH}`;
const DUE_ON_CLOCK = `select d.id, d.due_at from accounts a cross join lateral (
    select m.id, m.due_at from memberships m
    where m.account_id = a.id and m.due_at is not null and m.due_at <= now() and (m.due_at, m.id) > (?::timestamptz, ?)
    order by m.due_at, m.id limit ${BATCH}) d
  where a.clock_id = ?
  order by d.due_at, d.id limit ${BATCH}`;

const NEXT_DUE_AT_REAL_TIME = `select m.due_at from memberships m where m.due_at is not null and ${inClockScope('m.account_id')}
  order by m.due_at limit 1`;
const NEXT_DUE_ON_CLOCK = `select min(d.due_at) as due_at from accounts a cross join lateral (
    select m.due_at from memberships m where m.account_id = a.id and m.due_at is not null order by m.due_at limit 1) d
  where a.clock_id = ?`;

const due = (db: Knex, after: [string, string]) => {
  const clockId = sweepClockId();
  return clockId ? db.raw(DUE_ON_CLOCK, [...after, clockId]) : db.raw(DUE_AT_REAL_TIME, after);
};

const EPOCH = '-infinity';

async function sweep(db: Knex): Promise<void> {
  const inPlace = sweepClockId() !== null;
  let after: [string, string] = [EPOCH, ''];
  for (;;) {
    const rows = (await due(db, after)).rows as { id: string; due_at: string }[];
    for (const row of rows) {
      if (inPlace) await membershipPeriodStep(db, row.id, row.due_at);
      else {
        await addJob(db, MEMBERSHIP_PERIOD_STEP, { membership_id: row.id, due_at: row.due_at },
          { jobKey: periodStepJobKey(row.id, row.due_at), jobKeyMode: 'unsafe_dedupe' });
      }
    }
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = [last.due_at, last.id];
  }
}

export const membershipPeriodSweep: ClockSweep = {
  name: MEMBERSHIP_PERIOD_SWEEP,
  async nextDueAt(db) {
    const clockId = sweepClockId();
    const [row] = (await (clockId ? db.raw(NEXT_DUE_ON_CLOCK, [clockId]) : db.raw(NEXT_DUE_AT_REAL_TIME))).rows as { due_at: string | null }[];
    return row?.due_at ? new Date(row.due_at).toISOString() : null;
  },
  run: sweep,
};

export const membershipPeriodSweepTask = (db: Knex): Task => async () => { await membershipPeriodSweep.run(db); };
