// The sandbox card network (network.ts), served through the cards area's port, and its background task.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { CARD_NETWORK_STEP, cardNetworkStepTask } from './network.js';

export { CARD_NETWORK_STEP, REVERSING_MERCHANT, sandboxCardNetwork, stepCardTransaction } from './network.js';

export function cardNetworkTasks(db: Knex): TaskList {
  return { [CARD_NETWORK_STEP]: cardNetworkStepTask(db) };
}
