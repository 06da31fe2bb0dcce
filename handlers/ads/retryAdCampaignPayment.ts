import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { lockCampaign } from './load.js';
import { retryCampaign } from './retry-campaign.js';
import { campaignView } from './campaign-events.js';

/**
 * POST /ad_campaigns/{id}/retry_payment (pins before 2026-08-25): this campaign's failed charges tried again now, in
 * the request, as the account's retry job does for each of its campaigns (retry-campaign.ts).
 */
export const retryAdCampaignPayment: Handler<'retryAdCampaignPayment'> = async ({ path }, ctx) => {
  const campaign = await lockCampaign(ctx, path.id);
  const failed = await ctx.db('ad_charges').where({ ad_campaign_id: campaign.id, status: 'failed' }).first('id');
  if (!failed) throw new ApiError(400, 'invalid_state', `The ad campaign ${campaign.id} has no failed payment to retry`, 'id');
  await retryCampaign(ctx.db, campaign.id);
  return campaignView(ctx.db, campaign.id);
};
