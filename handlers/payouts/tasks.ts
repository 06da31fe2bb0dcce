// The payouts area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { PAYOUT_RAIL_STEP, payoutRailStepTask } from '../payout_rail/rail.js';

export function payoutTasks(db: Knex): TaskList {
  return { [PAYOUT_RAIL_STEP]: payoutRailStepTask(db) };
}
