// retry_ads_payment: one more try of every failed ad charge of the retry's account (handlers/ads/billing.ts), campaign
// by campaign with the campaign locked first (the order delivery takes). A campaign whose failed charges are all paid
// resumes delivery (payment_failed → active, its issue cleared) from the next full hour. The retry completes with
// outcome no_failed_campaigns when there was nothing to retry, else null: the campaigns say how each went (the
// released outcome enum has no other value).
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { nowMs } from '../shared/now.js';
import { retryCharge, paymentIssue, type Charge } from '../ads/billing.js';
import { resumeFrom } from '../ads/resume.js';
import { afterCampaignChange, deliveryStatuses } from '../ads/campaign-events.js';
import { transition } from '../../runtime/state-machine.js';

export const RETRY_ADS_PAYMENT_TASK = 'retry_ads_payment';
export const retryJobKey = (accountId: string) => `${RETRY_ADS_PAYMENT_TASK}:${accountId}`;

async function retryCampaign(trx: Knex, campaignId: string): Promise<void> {
  const c = await trx('ad_campaigns').where({ id: campaignId }).forUpdate().first();
  const failed: (Charge & { hour: string })[] = await trx('ad_charges').where({ ad_campaign_id: campaignId, status: 'failed' }).orderBy('hour').forUpdate();
  let reason: string | null = null;
  for (const charge of failed) {
    if (!(await retryCharge(trx, charge))) reason = (await trx('ad_charges').where({ id: charge.id }).first('failure_reason')).failure_reason;
  }
  if (c.status !== 'payment_failed' || c.deleted_at) return;
  const before = (await deliveryStatuses(trx, [c.id])).get(c.id)!;
  if (reason === null) {
    await trx('ad_campaigns').where({ id: c.id }).update({
      status: transition('AdCampaign', c.status, 'recover_payment'), issues: '[]', delivered_through: resumeFrom(trx), updated_at: nowMs(trx),
    });
    await afterCampaignChange(trx, c.id, before);
    return;
  }
  await trx('ad_campaigns').where({ id: c.id }).update({ issues: JSON.stringify([paymentIssue(c.id, reason)]), updated_at: nowMs(trx) });
}

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
