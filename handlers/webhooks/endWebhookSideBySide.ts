// Written by hand, not declared plain: ending the window may move the pin to its second version, a field the
// request does not name.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { invalid } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { openWindow } from './side-by-side.js';

/** POST /webhooks/{id}/side_by_side/end: keep current leaves the pin; keep second moves it to the window's version. */
export const endWebhookSideBySide: Handler<'endWebhookSideBySide'> = async ({ path, body }, ctx) => {
  const webhook = await loadOwned(ctx, resources.Webhook, path.id, ['webhook:manage'], { read: 'lock' });
  const window = await openWindow(ctx.db, webhook.id);
  if (!window) throw invalid('This webhook has no side-by-side window open (POST /webhooks/{id}/side_by_side opens one)', 'id');
  await ctx.db('webhooks').where({ id: webhook.id }).update({
    side_by_side_version: null, side_by_side_until: null, updated_at: ctx.db.fn.now(),
    ...(body.keep === 'second' ? { api_version_date: window.version } : {}),
  });
  return readView(ctx.db, resources.Webhook, webhook.id);
};
