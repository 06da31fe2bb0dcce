// The webhook delivery tasks, by name.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { DISPATCH_EVENT_TASK } from '../../../generated/events.js';
import { dispatchEvent, DELIVER_WEBHOOK_TASK } from './dispatch-event-task.js';
import { deliverWebhook } from './deliver-webhook-task.js';
import { sweepDeliveries, SWEEP_TASK } from './sweep-task.js';

export function webhookDeliveryTasks(db: Knex): TaskList {
  return {
    [DISPATCH_EVENT_TASK]: async (payload) => { await dispatchEvent(db, (payload as { event_id: string }).event_id); },
    [DELIVER_WEBHOOK_TASK]: async (payload, helpers) => {
      await deliverWebhook(db, (payload as { delivery_id: string }).delivery_id, helpers.job.id);
    },
    [SWEEP_TASK]: async () => { await sweepDeliveries(db); },
  };
}
