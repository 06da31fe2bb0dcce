// Written by hand, not declared plain: it makes a sample event (delivered to this subscription alone) and its
// delivery, whose job it queues.
import type { Handler } from '../../generated/handler.js';
import { specData } from '../../generated/spec-data.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './delivery/dispatch-event-task.js';
import { deliveryQueue } from './delivery/delivery-queue.js';
import { deliveryView } from './delivery-attempts.js';
import { operableWebhook } from './operable-webhook.js';
import { sampleEventData } from './sample-event-data.js';

/**
 * POST /webhooks/{id}/test: the sample event is stored as dispatched (the dispatch and the sweep pass it by) and with
 * no account, so that nothing acts on it but its one delivery: no subscription, replay or notification (the
 * notifications trigger on events tells an event's account's team: migration 311) reaches an event of no account.
 * The delivery is marked test; the deliver task gives its payload the subscription's account and "test": true.
 */
export const testWebhook: Handler<'testWebhook'> = async ({ path, body }, ctx) => {
  const webhook = await operableWebhook(ctx, path.id, 'sending it a test event');
  if (!webhook.events.includes(body.event)) {
    throw invalid(`event must be one of this webhook's testable_events (the events it receives): ${body.event} is not`, 'event');
  }
  const schema = (specData.events as Record<string, string>)[body.event];
  const [event] = await ctx.db('events').insert({
    id: newId('evt_'), type: body.event, account_id: null,
    data: JSON.stringify(sampleEventData(schema, webhook.account_id)), dispatched_at: ctx.db.fn.now(),
  }).returning('id');
  const id = newId('whdl_');
  await ctx.db('webhook_deliveries').insert({ id, webhook_id: webhook.id, event_id: event.id, status: 'pending', next_attempt_at: ctx.db.fn.now(), test: true });
  await ctx.addJob(DELIVER_WEBHOOK_TASK, { delivery_id: id }, { jobKey: deliveryJobKey(id), realTime: true, queueName: deliveryQueue(webhook.id) });
  return deliveryView(ctx.db, id);
};
