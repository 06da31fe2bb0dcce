import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { adViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { READ_SCOPES } from './load.js';

/** GET /ads/{id}: stats over the window. */
export const retrieveAd: Handler<'retrieveAd'> = async ({ path, query }, ctx) => {
  const w = statsWindow(query);
  const row = await loadOwned(ctx, resources.Ad, path.id, READ_SCOPES);
  return (await adViews(ctx.db, [row], w))[0]!;
};
