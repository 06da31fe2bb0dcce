// This area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { RETRY_ADS_PAYMENT_TASK, retryAdsPaymentTask } from './retry-ads-payment-task.js';
import { RENEW_TASK } from './economic-intelligence.js';
import { renewEconomicIntelligenceTask } from './renew-economic-intelligence-task.js';

export function accountPreferencesTasks(db: Knex): TaskList {
  return {
    [RETRY_ADS_PAYMENT_TASK]: retryAdsPaymentTask(db),
    [RENEW_TASK]: renewEconomicIntelligenceTask(db),
  };
}
