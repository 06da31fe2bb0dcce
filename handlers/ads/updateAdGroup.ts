import type { Handler } from '../../generated/handler.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { lockGroup } from './load.js';
import { audiencesOf, checkGroupBudget } from './group-rules.js';
import { checkAudiences } from './references.js';
import { groupViews } from './views.js';
import { statsWindow } from './stats-window.js';

/** PATCH /ad_groups/{id}: the fields sent, by the rules of creation. */
export const updateAdGroup: Handler<'updateAdGroup'> = async ({ path, body }, ctx) => {
  const group = await lockGroup(ctx, path.id);
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
  return (await groupViews(ctx.db, [(await readRow(ctx.db, resources.AdGroup, group.id))!], statsWindow({})))[0]!;
};
