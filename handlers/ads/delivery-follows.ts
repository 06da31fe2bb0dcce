// The rule of pausing and resuming campaigns, ad groups and ads (plain transitions, spec/areas/ads.yaml): the
// campaign's delivery_status may follow the move (every group paused is ad_groups_off, every ad paused no_ads), which
// records ad_campaign.delivery_changed with the campaign as it then is.
import type { HandlerContext } from '../../generated/handler.js';
import type { AdCampaign } from '../../generated/types.js';
import { recordEvent } from '../../generated/events.js';
import type { Row } from '../../runtime/plain/stored-resource.js';
import { resumeFrom } from './resume.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

/** A campaign's move: delivery resumes from the next full hour; the campaign's view is the answer, so it is compared. */
export async function campaignMoves(row: Row, _input: unknown, ctx: HandlerContext) {
  const before = (await deliveryStatuses(ctx.db, [row.id])).get(row.id)!;
  return {
    set: { delivered_through: resumeFrom(ctx.db) },
    after: async (view: AdCampaign) => {
      if (view.delivery_status !== before) await recordEvent(ctx.db, 'ad_campaign.delivery_changed', view.account_id, view);
    },
  };
}

/** A group's or an ad's move: its campaign is read again after the write and compared. */
export async function campaignFollows(row: Row, _input: unknown, ctx: HandlerContext) {
  const before = (await deliveryStatuses(ctx.db, [row.ad_campaign_id])).get(row.ad_campaign_id) ?? null;
  return { after: async () => { await afterCampaignChange(ctx.db, row.ad_campaign_id, before); } };
}
