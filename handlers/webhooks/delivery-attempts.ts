// The fill GET /webhooks/{id}/deliveries declares (spec/areas/webhooks.yaml plain.fill): each delivery's attempts, in
// order, read for the whole page in one statement.
import type { Fill } from '../../generated/plain-hooks.js';
import type { WebhookDelivery } from '../../generated/types.js';

export const deliveryAttempts: Fill<WebhookDelivery, unknown> = (_query, ctx) => async (views) => {
  const attempts = await ctx.db('webhook_delivery_attempts').whereIn('delivery_id', views.map((v) => v.id)).orderBy('attempt');
  for (const view of views) {
    view.attempts = attempts.filter((a) => a.delivery_id === view.id).map((a) => ({
      attempt: a.attempt, response_status: a.response_status, error: a.error, duration_ms: a.duration_ms, created_at: a.created_at,
    }));
  }
};
