import type { DeleteHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';

/** DELETE /ad_campaigns/{id} (plain soft delete): its ad groups and ads go with it, so nothing of it delivers. */
export const deleteAdCampaign: DeleteHook<'deleteAdCampaign'> = async (campaign, _input, ctx) => {
  for (const table of ['ads', 'ad_groups']) {
    await ctx.db(table).where({ ad_campaign_id: campaign.id }).whereNull('deleted_at')
      .update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  }
};
