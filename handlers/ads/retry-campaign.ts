// One more try of every failed ad charge of one campaign (handlers/ads/billing.ts), the campaign locked first (the
// order delivery takes): for each campaign of an account's retry (POST /accounts/{id}/retry_ads_payment's job) and for
// the one campaign of POST /ad_campaigns/{id}/retry_payment at pins before 2026-08-25. A campaign whose failed charges
// are all paid resumes delivery (payment_failed → active, its issue cleared) from the next full hour; else its issue
// gives the last refusal's reason.
import type { Knex } from 'knex';
import { nowMs } from '../shared/now.js';
import { retryCharge, paymentIssue, type Charge } from './billing.js';
import { resumeFrom } from './resume.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';
import { transition } from '../../generated/state-machine.js';

export async function retryCampaign(trx: Knex, campaignId: string): Promise<void> {
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
