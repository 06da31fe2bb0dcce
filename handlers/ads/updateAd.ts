import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { lockAd } from './load.js';
import { adColumns } from './ad-write.js';
import { syncNetworkPost } from './network-posts.js';
import { adViews } from './views.js';
import { statsWindow } from './stats-window.js';

/** PATCH /ads/{id}: the fields sent, checked against the ad they make; emits ad.updated when something changed. */
export const updateAd: Handler<'updateAd'> = async ({ path, body }, ctx) => {
  const row = await lockAd(ctx, path.id);
  // Before entry 17 copy was plain strings: such a caller would rewrite translated copy without its languages.
  if (!ctx.flag('ad_copy_language_objects') && row.translations) {
    throw invalid(`Ad ${row.id} has translations, which versions before 2026-08-28 cannot express; update it at a later version`, 'translations');
  }
  const patch: Record<string, unknown> = await adColumns(ctx.db, row, body, row);
  for (const f of ['title', 'call_to_action', 'url'] as const) if (body[f] !== undefined) patch[f] = body[f];
  const changed = Object.keys(patch).length > 0;
  if (changed) await ctx.db('ads').where({ id: row.id }).update({ ...patch, updated_at: nowMs(ctx.db) });
  if (changed) await syncNetworkPost(ctx.db, row.id);
  const view = (await adViews(ctx.db, [(await readRow(ctx.db, resources.Ad, row.id))!], statsWindow({})))[0]!;
  if (changed) await ctx.emit('ad.updated', row.account_id, view);
  return view;
};
