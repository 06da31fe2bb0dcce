// Written by hand, not a plain transition: PATCH: launch is one of the body's changes, after the ads agreement and payment methods are checked.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
import { lockCampaign } from './load.js';
import { checkSchedule } from './schedule.js';
import { checkLaunchable } from './launch.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** PATCH /ad_campaigns/{id}: the fields sent; status active launches a draft (agreement and billing permitting). */
export const updateAdCampaign: Handler<'updateAdCampaign'> = async ({ path, body }, ctx) => {
  const row = await lockCampaign(ctx, path.id);
  const before = (await deliveryStatuses(ctx.db, [row.id])).get(row.id)!;
  const patch: Record<string, unknown> = {};
  for (const f of ['title', 'budget_amount', 'budget_type', 'bid_type', 'starts_at', 'ends_at'] as const) {
    if (body[f] !== undefined) patch[f] = body[f];
  }
  if (body.special_ad_categories !== undefined) patch.special_ad_categories = JSON.stringify(body.special_ad_categories);
  if (body.budget_optimization !== undefined && body.budget_optimization !== row.budget_optimization) {
    if (row.status !== 'draft') throw invalid('budget_optimization can change only before launch', 'budget_optimization');
    patch.budget_optimization = body.budget_optimization;
  }
  checkSchedule(iso(body.starts_at !== undefined ? body.starts_at : row.starts_at), iso(body.ends_at !== undefined ? body.ends_at : row.ends_at));
  if (body.status === 'active' && row.status !== 'active') {
    patch.status = transition('AdCampaign', row.status, 'launch');
    await checkLaunchable(ctx.db, row.account_id);
    patch.launched_at = nowMs(ctx.db);
  }
  if (Object.keys(patch).length > 0) {
    await ctx.db('ad_campaigns').where({ id: row.id }).update({ ...patch, updated_at: nowMs(ctx.db) });
  }
  return afterCampaignChange(ctx.db, row.id, before);
};
