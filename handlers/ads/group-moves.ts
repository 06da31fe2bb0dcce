// Pause and resume of an ad group or an ad: a state machine move; the campaign's delivery_status may follow
// (every group paused is ad_groups_off, every ad paused no_ads), which emits ad_campaign.delivery_changed.
import type { HandlerContext } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import type { Ad, AdGroup } from '../../generated/types.js';
import { recordEvent } from '../../generated/events.js';
import { nowMs } from '../shared/now.js';
import { lockAd, lockGroup } from './load.js';
import { adViews, groupViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

export async function moveGroup(ctx: HandlerContext, id: string, action: 'pause' | 'unpause'): Promise<AdGroup> {
  const row = await lockGroup(ctx, id);
  const before = (await deliveryStatuses(ctx.db, [row.ad_campaign_id])).get(row.ad_campaign_id) ?? null;
  await ctx.db('ad_groups').where({ id: row.id }).update({ status: transition('AdGroup', row.status, action), updated_at: nowMs(ctx.db) });
  await afterCampaignChange(ctx.db, row.ad_campaign_id, before);
  return (await groupViews(ctx.db, [(await readRow(ctx.db, resources.AdGroup, row.id))!], statsWindow({})))[0]!;
}

export async function moveAd(ctx: HandlerContext, id: string, action: 'pause' | 'unpause'): Promise<Ad> {
  const row = await lockAd(ctx, id);
  const before = (await deliveryStatuses(ctx.db, [row.ad_campaign_id])).get(row.ad_campaign_id) ?? null;
  await ctx.db('ads').where({ id: row.id }).update({ status: transition('Ad', row.status, action), updated_at: nowMs(ctx.db) });
  await afterCampaignChange(ctx.db, row.ad_campaign_id, before);
  const view = (await adViews(ctx.db, [(await readRow(ctx.db, resources.Ad, row.id))!], statsWindow({})))[0]!;
  await recordEvent(ctx.db, 'ad.updated', row.account_id, view);
  return view;
}
