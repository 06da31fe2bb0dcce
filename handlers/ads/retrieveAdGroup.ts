import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { groupViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { READ_SCOPES } from './load.js';

/** GET /ad_groups/{id}: stats over the window. */
export const retrieveAdGroup: Handler<'retrieveAdGroup'> = async ({ path, query }, ctx) => {
  const w = statsWindow(query);
  const row = await loadOwned(ctx, resources.AdGroup, path.id, READ_SCOPES);
  return (await groupViews(ctx.db, [row], w))[0]!;
};
