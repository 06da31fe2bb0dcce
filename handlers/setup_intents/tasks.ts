// This area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { SAVE_SETUP_INTENT, saveSetupIntentTask } from './save-setup-intent.js';

export function setupIntentTasks(db: Knex): TaskList {
  return { [SAVE_SETUP_INTENT]: saveSetupIntentTask(db) };
}
