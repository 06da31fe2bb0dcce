import type { Handler } from '../../runtime/handler.js';
import { loadWebhook } from './webhook-access.js';
import { webhookView } from './webhook-view.js';

/** GET /webhooks/{id} */
export const retrieveWebhook: Handler<'retrieveWebhook'> = async ({ path }, ctx) => {
  return webhookView(await loadWebhook(ctx, path.id, 'webhook:read'));
};
