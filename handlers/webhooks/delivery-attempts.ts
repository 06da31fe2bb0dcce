// The fill GET /webhooks/{id}/deliveries declares (spec/areas/webhooks.yaml plain.fill): each delivery's attempts, in
// order, read for the whole page in one statement. The operations answering one delivery (resend, test) use it too.
import type { Knex } from 'knex';
import type { Fill } from '../../generated/plain-hooks.js';
import type { WebhookDelivery } from '../../generated/types.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

export async function withAttempts(db: Knex, views: WebhookDelivery[]): Promise<void> {
  const attempts = await db('webhook_delivery_attempts').whereIn('delivery_id', views.map((v) => v.id)).orderBy('attempt');
  for (const view of views) {
    view.attempts = attempts.filter((a) => a.delivery_id === view.id).map((a) => ({
      attempt: a.attempt, response_status: a.response_status, error: a.error, duration_ms: a.duration_ms, created_at: a.created_at,
    }));
  }
}

export const deliveryAttempts: Fill<WebhookDelivery, unknown> = (_query, ctx) => (views) => withAttempts(ctx.db, views);

/** One delivery as the deliveries list shows it (attempts included), read after a write. */
export async function deliveryView(db: Knex, id: string): Promise<WebhookDelivery> {
  const view = await readView(db, resources.WebhookDelivery, id);
  await withAttempts(db, [view]);
  return view;
}
