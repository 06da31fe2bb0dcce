// This area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { END_MEMBERSHIP_PERIOD, endMembershipPeriodTask } from './end-period-task.js';
import { MEMBERSHIP_PERIOD_STEP, membershipPeriodStepTask } from './period-step.js';
import { MEMBERSHIP_PERIOD_SWEEP, membershipPeriodSweepTask } from './period-sweep.js';

export { membershipPeriodSweep, MEMBERSHIP_PERIOD_SWEEP } from './period-sweep.js';

export function membershipTasks(db: Knex): TaskList {
  return {
    [MEMBERSHIP_PERIOD_STEP]: membershipPeriodStepTask(db),
    [MEMBERSHIP_PERIOD_SWEEP]: membershipPeriodSweepTask(db),
    [END_MEMBERSHIP_PERIOD]: endMembershipPeriodTask(db),
  };
}
