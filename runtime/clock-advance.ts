// Moving a clock forward (runtime/clock.ts). An advance runs everything that falls due between the clock's time and
// the target, in time order, each at its own instant: the jobs that waited on the clock (clock_timers), and the
// sweeps that find due rows by time (a renewal, funds that clear), which say when their next row is due. Each step is
// committed before the next, so a worker that dies mid-advance leaves a clock that the job's retry carries on from;
// the work of a step is the same idempotent task a job would run, so one run again after a crash does nothing twice.
import type { Knex } from 'knex';
import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import { runOnClock, setTransactionClock, type ClockContext } from './clock.js';

/** Work found by time rather than queued: run at each instant the clock stops at, for the clock's rows only. */
export interface ClockSweep {
  name: string;
  /** the earliest instant (ISO) at which a row in the current clock's scope falls due, or null */
  nextDueAt(db: Knex): Promise<string | null>;
  /** does what is due at now() in the current clock's scope */
  run(db: Knex): Promise<void>;
}

export const ADVANCE_CLOCK = 'advance_clock';
const MAX_SWEEP_REPEATS = 50;
export const advanceJobKey = (clockId: string) => `${ADVANCE_CLOCK}:${clockId}`;

interface Timer { id: string; run_at: string; task: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }

type Step = { kind: 'timer'; at: string; timer: Timer } | { kind: 'sweep'; at: string; sweep: ClockSweep } | { kind: 'done' };

const iso = (value: string | Date) => new Date(value).toISOString();

/** What the project does when an advance is done, in the transaction that marks the clock ready (an event). */
export type OnClockReady = (trx: Knex, clock: Record<string, any>) => Promise<void>;

/** The next thing due on the clock, at most its target; moves the clock's time to it (or to the target, done). */
async function nextStep(db: Knex, clockId: string, sweeps: readonly ClockSweep[], stuck: Map<string, string>,
  onReady?: OnClockReady): Promise<Step | null> {
  return db.transaction(async (trx) => {
    const clock = await trx('clocks').where({ id: clockId }).whereNull('deleted_at').forUpdate().first();
    if (!clock || clock.status !== 'advancing') return null;
    const target = iso(clock.target_time);
    const timer: Timer | undefined = await trx('clock_timers').where({ clock_id: clockId }).where('run_at', '<=', target)
      .orderBy([{ column: 'run_at' }, { column: 'id' }]).first();
    let step: Step = timer ? { kind: 'timer', at: iso(timer.run_at), timer } : { kind: 'done' };
    // Sweeps read their rows at the clock's current time and scope, in SQL (the transaction's settings) as in code.
    const current: ClockContext = { clockId, now: iso(clock.frozen_time) };
    if (sweeps.length) await setTransactionClock(trx, current);
    for (const sweep of sweeps) {
      const due = await runOnClock(current, () => sweep.nextDueAt(trx));
      if (due === null) continue;
      const at = iso(due) < iso(clock.frozen_time) ? iso(clock.frozen_time) : iso(due);
      if (at <= (stuck.get(sweep.name) ?? '')) continue;
      if (at <= target && (step.kind === 'done' || at < step.at)) step = { kind: 'sweep', at, sweep };
    }
    const now = step.kind === 'done' ? target : step.at;
    // Time never goes back (a timer filed at the clock's time is due at once).
    const [moved] = await trx('clocks').where({ id: clockId }).update({
      frozen_time: trx.raw('greatest(frozen_time, ?::timestamptz)', [now]),
      ...(step.kind === 'done' ? { status: 'ready', target_time: null } : {}),
      updated_at: trx.raw("date_trunc('milliseconds', pg_catalog.now())"),
    }).returning('*');
    if (step.kind === 'done' && onReady) {
      // Dated by the clock, as everything its accounts did on the way.
      await setTransactionClock(trx, { clockId, now: target });
      await onReady(trx, moved);
    }
    return step;
  });
}

/** The advance_clock task: steps until the target is reached. `tasks` are the worker's (what a timer names). */
export function advanceClockTask(db: Knex, tasks: () => TaskList, sweeps: () => readonly ClockSweep[], onReady?: OnClockReady): Task {
  return async (payload, helpers) => {
    const clockId = (payload as { clock_id: string }).clock_id;
    // A sweep that finds the same instant due again and again does not move its rows on (a defect): after a few
    // runs it is passed over up to that instant, so the advance still ends, and the defect is logged.
    const repeats = new Map<string, { at: string; runs: number }>();
    const stuck = new Map<string, string>();
    for (;;) {
      const step = await nextStep(db, clockId, sweeps(), stuck, onReady);
      if (!step || step.kind === 'done') return;
      const clock: ClockContext = { clockId, now: step.at };
      if (step.kind === 'sweep') {
        const seen = repeats.get(step.sweep.name);
        const runs = seen?.at === step.at ? seen.runs + 1 : 1;
        repeats.set(step.sweep.name, { at: step.at, runs });
        if (runs > MAX_SWEEP_REPEATS) {
          helpers.logger.error(`clock ${clockId}: the sweep ${step.sweep.name} still finds work due at ${step.at} after ${MAX_SWEEP_REPEATS} runs; passed over`);
          stuck.set(step.sweep.name, step.at);
          continue;
        }
        await runOnClock(clock, () => step.sweep.run(db));
        continue;
      }
      await runTimer(db, clock, step.timer, tasks(), helpers);
    }
  };
}

/** A timer's task at its instant, then the timer is gone. A task that fails is tried again at the next step, up to its
 * max_attempts, and then dropped with its error logged: one broken job must not hold the clock forever. */
async function runTimer(db: Knex, clock: ClockContext, timer: Timer, tasks: TaskList, helpers: JobHelpers): Promise<void> {
  const task = tasks[timer.task];
  try {
    if (!task) throw new Error(`no task ${timer.task}`);
    await runOnClock(clock, async () => { await task(timer.payload, helpers); });
    // A task that queued itself again under the same key moved this row to its next run: that one stays.
    await db('clock_timers').where({ id: timer.id, run_at: timer.run_at }).delete();
  } catch (e) {
    const attempts = timer.attempts + 1;
    const error = e instanceof Error ? e.message : String(e);
    helpers.logger.error(`clock ${clock.clockId}: ${timer.task} failed at ${clock.now} (attempt ${attempts}): ${error}`);
    if (attempts >= timer.max_attempts) await db('clock_timers').where({ id: timer.id }).delete();
    else await db('clock_timers').where({ id: timer.id }).update({ attempts, last_error: error.slice(0, 1000) });
  }
}

/** Jobs queued on a clock (their payload names it: public.app_add_job) run at the clock's time. The rest run as they are. */
export function onClocks(db: Knex, tasks: TaskList): TaskList {
  const wrapped: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (!task) continue;
    wrapped[name] = async (payload, helpers) => {
      const clockId = (payload as { $clock?: unknown } | null)?.$clock;
      if (typeof clockId !== 'string') return task(payload, helpers);
      const clock = await db('clocks').where({ id: clockId }).whereNull('deleted_at').first('frozen_time');
      if (!clock) return task(payload, helpers);
      return runOnClock({ clockId, now: iso(clock.frozen_time) }, async () => { await task(payload, helpers); });
    };
  }
  return wrapped;
}
