// The cards area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { CARD_NETWORK_STEP, cardNetworkStepTask } from '../card_network/network.js';

export function cardTasks(db: Knex): TaskList {
  return { [CARD_NETWORK_STEP]: cardNetworkStepTask(db) };
}
