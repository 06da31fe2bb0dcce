import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereScopeHeld } from './webhook-access.js';
import { webhookView, type WebhookRow } from './webhook-view.js';

/** GET /webhooks: one account's subscriptions (checked by the runtime), or those of every account readable. */
export const listWebhooks: Handler<'listWebhooks'> = async ({ query }, ctx) => {
  const q = ctx.db('webhooks');
  if (query.account_id) q.where({ account_id: query.account_id });
  else await whereScopeHeld(ctx, q, 'webhook:read');
  const { rows, page_info } = await paginate<WebhookRow & { id: string }>(q, query, { defaultSize: ctx.defaultPageSize });
  return { data: rows.map((r) => webhookView(r)), page_info };
};
