// Written by hand, not declared plain: the delivery is found under the subscription the path names (two ids), and
// resending queues its job again rather than writing a field.
import type { Handler } from '../../generated/handler.js';
import { conflict, notFound } from '../../runtime/errors.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './delivery/dispatch-event-task.js';
import { deliveryQueue } from './delivery/delivery-queue.js';
import { deliveryView } from './delivery-attempts.js';
import { operableWebhook } from './operable-webhook.js';

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/resend: the same delivery (the same webhook-id) is pending again and
 * its job runs now; the attempt it makes is one more of its attempts. A job key names the delivery, so a pending
 * delivery's retry job is replaced (moved to now), never doubled.
 */
export const resendWebhookDelivery: Handler<'resendWebhookDelivery'> = async ({ path }, ctx) => {
  await operableWebhook(ctx, path.id, 'resending its deliveries');
  const delivery = await ctx.db('webhook_deliveries').where({ id: path.delivery_id, webhook_id: path.id }).forUpdate().first('id', 'status', 'lease_until');
  if (!delivery) throw notFound('webhook delivery', path.delivery_id, 'delivery_id');
  if (delivery.status === 'sending' && new Date(delivery.lease_until) > new Date()) {
    throw conflict('This delivery is being sent now; its attempt will be listed when it ends', 'delivery_id');
  }
  await ctx.db('webhook_deliveries').where({ id: delivery.id })
    .update({ status: 'pending', next_attempt_at: ctx.db.fn.now(), lease_until: null, sending_job_id: null, updated_at: ctx.db.fn.now() });
  // realTime: sending is work for the world outside, never held back by a sandbox clock; in the subscription's queue
  await ctx.addJob(DELIVER_WEBHOOK_TASK, { delivery_id: delivery.id },
    { jobKey: deliveryJobKey(delivery.id), realTime: true, queueName: deliveryQueue(path.id) });
  return deliveryView(ctx.db, delivery.id);
};
