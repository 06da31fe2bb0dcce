import type { Handler } from '../../runtime/handler.js';
import { whereOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { listPage } from './list-page.js';
import { adViews } from './views.js';
import { statsWindow } from './stats-window.js';

/** GET /ads: newest first, stats over the window. */
export const listAds: Handler<'listAds'> = async ({ query }, ctx) => {
  const w = statsWindow(query);
  return listPage(ctx, resources.Ad, query, async (q) => {
    await whereOwned(ctx.access, q, 'ads.account_id', 'ads:read', query.account_id);
    if (query.ad_campaign_id) q.where('ads.ad_campaign_id', query.ad_campaign_id);
    if (query.ad_group_id) q.where('ads.ad_group_id', query.ad_group_id);
    if (query.status) q.where('ads.status', query.status);
  }, (rows) => adViews(ctx.db, rows, w));
};
