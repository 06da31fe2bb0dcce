// The sandbox payout rail (rail.ts), served through the payouts area's port, and its background task.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { PAYOUT_RAIL_STEP, payoutRailStepTask } from './rail.js';

export { sandboxPayoutRail, stepPayout, TEST_DESTINATIONS, REVIEW_AMOUNT, NEW_ACCOUNT_REVIEW_AMOUNT } from './rail.js';

export function payoutRailTasks(db: Knex): TaskList {
  return { [PAYOUT_RAIL_STEP]: payoutRailStepTask(db) };
}
