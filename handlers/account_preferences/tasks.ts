// This area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { RENEW_TASK } from './economic-intelligence.js';
import { renewEconomicIntelligenceTask } from './renew-economic-intelligence-task.js';

export function accountPreferencesTasks(db: Knex): TaskList {
  return {
    [RENEW_TASK]: renewEconomicIntelligenceTask(db),
  };
}
