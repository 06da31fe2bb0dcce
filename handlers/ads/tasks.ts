// This area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { RETRY_ADS_PAYMENT_TASK } from '../account_preferences/index.js';
import { retryAdsPaymentTask } from './retry-ads-payment.js';

export function adsTasks(db: Knex): TaskList {
  return {
    [RETRY_ADS_PAYMENT_TASK]: retryAdsPaymentTask(db),
  };
}
