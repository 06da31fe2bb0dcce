import type { Handler } from '../../runtime/handler.js';
import { loadWebhook } from './webhook-access.js';
import { checkEvents, checkPayloadFormat, checkPin, checkUrl } from './webhook-rules.js';
import { webhookView } from './webhook-view.js';

/** PATCH /webhooks/{id}: only the fields sent change. */
export const updateWebhook: Handler<'updateWebhook'> = async ({ path, body }, ctx) => {
  const hook = await loadWebhook(ctx, path.id, 'webhook:manage');
  checkPayloadFormat(body.api_version);
  const changes: Record<string, unknown> = { updated_at: new Date().toISOString() };
  if (body.url !== undefined) changes.url = checkUrl(body.url);
  if (body.events !== undefined) changes.events = checkEvents(body.events);
  if (body.enabled !== undefined) changes.enabled = body.enabled;
  if (body.description !== undefined) changes.description = body.description;
  if (body.api_version_date !== undefined) changes.api_version_date = checkPin(body.api_version_date);
  if (body.include_connected_accounts !== undefined) changes.include_connected_accounts = body.include_connected_accounts;
  const [row] = await ctx.db('webhooks').where({ id: hook.id }).update(changes).returning('*');
  return webhookView(row);
};
