import type { Handler } from '../../runtime/handler.js';
import { whereOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { listPage } from './list-page.js';
import { campaignViews } from './views.js';
import { statsWindow } from './stats-window.js';

/** GET /ad_campaigns: newest first, stats over the window. */
export const listAdCampaigns: Handler<'listAdCampaigns'> = async ({ query }, ctx) => {
  const w = statsWindow(query);
  return listPage(ctx, resources.AdCampaign, query, async (q) => {
    await whereOwned(ctx.access, q, 'ad_campaigns.account_id', 'ads:read', query.account_id);
    if (query.status) q.where('ad_campaigns.status', query.status);
  }, (rows) => campaignViews(ctx.db, rows, w));
};
