// This area's background tasks, registered by name in handlers/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { END_MEMBERSHIP_PERIOD, endMembershipPeriodTask } from './end-period-task.js';

export function membershipTasks(db: Knex): TaskList {
  return { [END_MEMBERSHIP_PERIOD]: endMembershipPeriodTask(db) };
}
