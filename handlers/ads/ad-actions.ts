// The rules of the edits of one campaign, ad group or ad, and of a campaign's payment retry (plain actions,
// spec/areas/ads.yaml): the runtime finds and locks the row (ads:manage), runs the rule, and answers the row as it
// then is with its delivery fields over the default stats window (stats-fill.ts).
import type { ActionHook } from '../../generated/plain-hooks.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
import { checkSchedule } from './schedule.js';
import { checkLaunchable } from './launch.js';
import { deliveryStatuses } from './campaign-events.js';
import { adColumns } from './ad-write.js';
import { syncNetworkPost } from './network-posts.js';
import { audiencesOf, checkGroupBudget } from './group-rules.js';
import { checkAudiences } from './references.js';
import { retryCampaign } from './retry-campaign.js';

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** PATCH /ad_campaigns/{id}: the fields sent; status active launches a draft (agreement and billing permitting).
 * Launch is one of the body's changes, so this is no declared transition; ad_campaign.delivery_changed when the
 * campaign's delivery_status moved. */
export const updateCampaignFields: ActionHook<'updateAdCampaign'> = async (row, { body }, ctx) => {
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
  return {
    after: async (view) => {
      if (view.delivery_status !== before) await recordEvent(ctx.db, 'ad_campaign.delivery_changed', view.account_id, view);
    },
  };
};

/** PATCH /ads/{id}: the fields sent, checked against the ad they make; ad.updated when something changed. */
export const updateAdFields: ActionHook<'updateAd'> = async (row, { body }, ctx) => {
  // Before entry 17 copy was plain strings: such a caller would rewrite translated copy without its languages.
  if (!ctx.flag('ad_copy_language_objects') && row.translations) {
    throw invalid(`Ad ${row.id} has translations, which versions before 2026-08-28 cannot express; update it at a later version`, 'translations');
  }
  const patch: Record<string, unknown> = await adColumns(ctx.db, row, body, row);
  for (const f of ['title', 'call_to_action', 'url'] as const) if (body[f] !== undefined) patch[f] = body[f];
  if (Object.keys(patch).length === 0) return { unchanged: true };
  await ctx.db('ads').where({ id: row.id }).update({ ...patch, updated_at: nowMs(ctx.db) });
  await syncNetworkPost(ctx.db, row.id);
};

/** PATCH /ad_groups/{id}: the fields sent, by the rules of creation (the campaign's budget rules, the account's
 * audiences). */
export const updateAdGroupFields: ActionHook<'updateAdGroup'> = async (group, { body }, ctx) => {
  const campaign = (await readRow(ctx.db, resources.AdCampaign, group.ad_campaign_id))!;
  const patch: Record<string, unknown> = {};
  for (const f of ['title', 'budget_amount', 'budget_type', 'optimization_goal'] as const) if (body[f] !== undefined) patch[f] = body[f];
  if (body.budget_amount !== undefined || body.budget_type !== undefined) {
    checkGroupBudget(campaign, body.budget_amount ?? group.budget_amount, body.budget_type ?? group.budget_type);
  }
  if (body.audiences !== undefined) {
    const audiences = audiencesOf(body.audiences, group.audiences);
    await checkAudiences(ctx.db, group.account_id, audiences);
    patch.audiences = JSON.stringify(audiences);
  }
  if (Object.keys(patch).length > 0) await ctx.db('ad_groups').where({ id: group.id }).update({ ...patch, updated_at: nowMs(ctx.db) });
};

/** POST /ad_campaigns/{id}/retry_payment (pins before 2026-08-25): this campaign's failed charges tried again now, in
 * the request, as the account's retry job does for each of its campaigns (retry-campaign.ts). */
export const retryCampaignPayment: ActionHook<'retryAdCampaignPayment'> = async (campaign, _input, ctx) => {
  const failed = await ctx.db('ad_charges').where({ ad_campaign_id: campaign.id, status: 'failed' }).first('id');
  if (!failed) throw new ApiError(400, 'invalid_state', `The ad campaign ${campaign.id} has no failed payment to retry`, 'id');
  await retryCampaign(ctx.db, campaign.id);
};
