// Written by hand, not declared plain: takes its currency from the account's preferences and checks the schedule; answers the campaign with its delivery fields.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { loadPreferences } from '../account_preferences/index.js';
import { checkSchedule } from './schedule.js';
import { campaignView } from './campaign-events.js';

/** POST /ad_campaigns: a draft in the account's ads_reporting_currency; nothing delivers until launch. */
export const createAdCampaign: Handler<'createAdCampaign'> = async ({ body }, ctx) => {
  checkSchedule(body.starts_at ?? null, body.ends_at ?? null);
  const prefs = await loadPreferences(ctx.db, body.account_id);
  const [row] = await ctx.db('ad_campaigns').insert({
    id: newId('adcamp_'), account_id: body.account_id, title: body.title, objective: body.objective, platform: body.platform,
    status: 'draft', budget_amount: body.budget_amount, budget_type: body.budget_type ?? 'daily',
    budget_optimization: body.budget_optimization ?? 'ad_campaign', bid_type: body.bid_type ?? 'minimum_cost',
    currency: prefs.ads_reporting_currency, special_ad_categories: JSON.stringify(body.special_ad_categories ?? []),
    starts_at: body.starts_at ?? null, ends_at: body.ends_at ?? null,
  }).returning('id');
  return campaignView(ctx.db, row.id);
};
