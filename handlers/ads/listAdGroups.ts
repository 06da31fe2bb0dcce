import type { Handler } from '../../runtime/handler.js';
import { whereOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { listPage } from './list-page.js';
import { groupViews } from './views.js';
import { statsWindow } from './stats-window.js';

/** GET /ad_groups: newest first, stats over the window. */
export const listAdGroups: Handler<'listAdGroups'> = async ({ query }, ctx) => {
  const w = statsWindow(query);
  return listPage(ctx, resources.AdGroup, query, async (q) => {
    await whereOwned(ctx.access, q, 'ad_groups.account_id', 'ads:read', query.account_id);
    if (query.ad_campaign_id) q.where('ad_groups.ad_campaign_id', query.ad_campaign_id);
    if (query.status) q.where('ad_groups.status', query.status);
  }, (rows) => groupViews(ctx.db, rows, w));
};
