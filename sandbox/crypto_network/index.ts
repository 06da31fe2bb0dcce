// The sandbox crypto network (network.ts), served through the deposits area's port, and its background task.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { CRYPTO_NETWORK_CONFIRM, confirmDepositTask } from './network.js';

export { sandboxCryptoNetwork } from './network.js';

export function cryptoNetworkTasks(db: Knex): TaskList {
  return { [CRYPTO_NETWORK_CONFIRM]: confirmDepositTask(db) };
}
