// Written by hand, not declared plain: locks the campaign, checks budget and audiences, and moves the campaign's delivery status.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { lockCampaign } from './load.js';
import { audiencesOf, checkGroupBudget } from './group-rules.js';
import { checkAudiences } from './references.js';
import { groupViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

/** POST /ad_groups: in a campaign of the caller's; the campaign's delivery_status may move (no_ad_groups → ...). */
export const createAdGroup: Handler<'createAdGroup'> = async ({ body }, ctx) => {
  const campaign = await lockCampaign(ctx, body.ad_campaign_id, 'ad_campaign_id');
  checkGroupBudget(campaign, body.budget_amount, body.budget_type);
  const audiences = audiencesOf(body.audiences);
  await checkAudiences(ctx.db, campaign.account_id, audiences);
  const before = (await deliveryStatuses(ctx.db, [campaign.id])).get(campaign.id)!;
  const [row] = await ctx.db('ad_groups').insert({
    id: newId('adgrp_'), account_id: campaign.account_id, ad_campaign_id: campaign.id, title: body.title ?? null,
    status: body.status ?? 'active', budget_amount: body.budget_amount ?? null, budget_type: body.budget_type ?? null,
    optimization_goal: body.optimization_goal ?? null, audiences: JSON.stringify(audiences),
  }).returning('id');
  await afterCampaignChange(ctx.db, campaign.id, before);
  return (await groupViews(ctx.db, [(await readRow(ctx.db, resources.AdGroup, row.id))!], statsWindow({})))[0]!;
};
