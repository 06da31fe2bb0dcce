import type { Handler } from '../../runtime/handler.js';
import { loadWebhook } from './webhook-access.js';

/** DELETE /webhooks/{id} */
export const deleteWebhook: Handler<'deleteWebhook'> = async ({ path }, ctx) => {
  const hook = await loadWebhook(ctx, path.id, 'webhook:manage');
  await ctx.db('webhooks').where({ id: hook.id }).delete();
  return { id: hook.id, deleted: true };
};
