// retry_ads_payment: retries the failed payments of every ad campaign of the retry's account, then completes it.
// Ad campaigns do not exist in this API yet, so no campaign can have a failed payment: every retry completes
// with outcome no_failed_campaigns. When campaigns arrive, their failed charges are retried here.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { nowMs } from '../shared/now.js';

export const RETRY_ADS_PAYMENT_TASK = 'retry_ads_payment';
export const retryJobKey = (accountId: string) => `${RETRY_ADS_PAYMENT_TASK}:${accountId}`;

export async function runAdsPaymentRetry(db: Knex, retryId: string): Promise<void> {
  await db('ads_payment_retries').where({ id: retryId, status: 'queued' }).update({
    status: 'completed',
    outcome: 'no_failed_campaigns',
    completed_at: nowMs(db),
    updated_at: nowMs(db),
  });
}

export function retryAdsPaymentTask(db: Knex): Task {
  return async (payload) => {
    await runAdsPaymentRetry(db, (payload as { retry_id: string }).retry_id);
  };
}
