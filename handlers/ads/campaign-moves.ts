// Pause and resume of a campaign: a state machine move, then ad_campaign.delivery_changed.
import type { HandlerContext } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import type { AdCampaign } from '../../generated/types.js';
import { nowMs } from '../shared/now.js';
import { lockCampaign } from './load.js';
import { resumeFrom } from './resume.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

export async function moveCampaign(ctx: HandlerContext, id: string, action: 'pause' | 'unpause'): Promise<AdCampaign> {
  const row = await lockCampaign(ctx, id);
  const before = (await deliveryStatuses(ctx.db, [row.id])).get(row.id)!;
  const status = transition('AdCampaign', row.status, action);
  await ctx.db('ad_campaigns').where({ id: row.id }).update({ status, updated_at: nowMs(ctx.db), delivered_through: resumeFrom(ctx.db) });
  return afterCampaignChange(ctx.db, row.id, before);
}
