// retry_ads_payment: one more try of every failed ad charge of the retry's account, campaign by campaign
// (retry-campaign.ts). The account preferences' retry operation queues the job (its name and key live there,
// handlers/account_preferences/retry-ads-payment-task.ts); the ads area runs it, as the charges are its own. The retry
// completes with outcome no_failed_campaigns when there was nothing to retry, else null: the campaigns say how each
// went (the released outcome enum has no other value).
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { nowMs } from '../shared/now.js';
import { retryCampaign } from './retry-campaign.js';

export async function runAdsPaymentRetry(db: Knex, retryId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const retry = await trx('ads_payment_retries').where({ id: retryId, status: 'queued' }).forUpdate().first();
    if (!retry) return;
    const campaigns: string[] = await trx('ad_charges').where({ account_id: retry.account_id, status: 'failed' })
      .distinct('ad_campaign_id').orderBy('ad_campaign_id').pluck('ad_campaign_id');
    for (const id of campaigns) await retryCampaign(trx, id);
    await trx('ads_payment_retries').where({ id: retryId }).update({
      status: 'completed', outcome: campaigns.length === 0 ? 'no_failed_campaigns' : null,
      completed_at: nowMs(trx), updated_at: nowMs(trx),
    });
  });
}

export function retryAdsPaymentTask(db: Knex): Task {
  return async (payload) => {
    await runAdsPaymentRetry(db, (payload as { retry_id: string }).retry_id);
  };
}
