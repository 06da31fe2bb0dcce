import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';

/** GET /webhooks/{id}/deliveries: a page of deliveries with their attempts (two queries per page). */
export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async ({ path, query }, ctx) => {
  const webhook = await loadOwned(ctx, resources.Webhook, path.id, ['webhook:read']);
  const q = ctx.db('webhook_deliveries as d').join('events as e', 'e.id', 'd.event_id')
    .where('d.webhook_id', webhook.id)
    .select('d.*', 'e.type as event_type');
  if (query.status) q.where('d.status', query.status);
  if (query.event_type) q.where('e.type', query.event_type);
  const { rows, page_info } = await paginate<Record<string, any> & { id: string }>(q, query, {
    sortColumn: 'd.created_at', idColumn: 'd.id', defaultSize: ctx.defaultPageSize,
  });
  const attempts = rows.length
    ? await ctx.db('webhook_delivery_attempts').whereIn('delivery_id', rows.map((r) => r.id)).orderBy('attempt')
    : [];
  return {
    data: rows.map((r) => ({
      id: r.id,
      webhook_id: r.webhook_id,
      event_id: r.event_id,
      event_type: r.event_type,
      status: r.status,
      attempt_count: r.attempts,
      next_attempt_at: r.next_attempt_at,
      delivered_at: r.delivered_at,
      attempts: attempts.filter((a) => a.delivery_id === r.id).map((a) => ({
        attempt: a.attempt, response_status: a.response_status, error: a.error, duration_ms: a.duration_ms, created_at: a.created_at,
      })),
      created_at: r.created_at,
    })),
    page_info,
  };
};
