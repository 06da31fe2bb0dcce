import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { campaignViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { READ_SCOPES } from './load.js';

/** GET /ad_campaigns/{id}: stats over the window. */
export const retrieveAdCampaign: Handler<'retrieveAdCampaign'> = async ({ path, query }, ctx) => {
  const w = statsWindow(query);
  const row = await loadOwned(ctx, resources.AdCampaign, path.id, READ_SCOPES);
  return (await campaignViews(ctx.db, [row], w))[0]!;
};
