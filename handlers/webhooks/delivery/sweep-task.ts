// sweep_webhook_deliveries: every minute, a safety net for webhook work whose job is gone (it failed for good, or
// was removed by hand): events never fanned out, deliveries overdue by more than a grace period, and deliveries
// whose sending lease ran out, get a job again. A worker that dies needs no sweep: runtime/worker-liveness.ts
// releases the jobs it held, and each runs again (a delivery's own job takes its lease back at once).
import type { Knex } from 'knex';
import { addJob } from '../../../runtime/jobs.js';
import { DISPATCH_EVENT_TASK } from '../../../generated/events.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './dispatch-event-task.js';
import { deliveryQueue } from './delivery-queue.js';

export const SWEEP_TASK = 'sweep_webhook_deliveries';
const GRACE_SECONDS = 60;

export async function sweepDeliveries(db: Knex, now = new Date()): Promise<{ events: number; deliveries: number }> {
  const cutoff = new Date(now.getTime() - GRACE_SECONDS * 1000).toISOString();
  return db.transaction(async (trx) => {
    const events = await trx('events').whereNull('dispatched_at').where('created_at', '<', cutoff).limit(1000).pluck('id');
    for (const id of events) await addJob(trx, DISPATCH_EVENT_TASK, { event_id: id }, { jobKey: `dispatch:${id}` });
    // A pending delivery of an account on a sandbox clock waits for the clock (its retry is the clock's timer).
    const onClock = trx('webhooks as w').join('accounts as a', 'a.id', 'w.account_id').whereNotNull('a.clock_id').select('w.id');
    const due = await trx('webhook_deliveries')
      .where((q) => q
        .where((p) => p.where('status', 'pending').where('next_attempt_at', '<', cutoff).whereNotIn('webhook_id', onClock))
        .orWhere((s) => s.where('status', 'sending').where('lease_until', '<', now.toISOString())))
      .limit(1000).select('id', 'webhook_id');
    const deliveries = due.map((d: { id: string }) => d.id);
    // An expired lease is released here, so the fresh job can claim the delivery; a job key whose job is running
    // gets a second job (graphile-worker's replace mode), and the lease keeps the two from both sending.
    if (deliveries.length) {
      await trx('webhook_deliveries').whereIn('id', deliveries).where('status', 'sending')
        .update({ status: 'pending', lease_until: null, sending_job_id: null, updated_at: trx.fn.now() });
    }
    // In the subscription's queue; a job still waiting there keeps its place (preserve_run_at), so a backlog of a slow
    // receiver is not reordered.
    for (const { id, webhook_id: webhookId } of due) {
      await addJob(trx, DELIVER_WEBHOOK_TASK, { delivery_id: id },
        { jobKey: deliveryJobKey(id), jobKeyMode: 'preserve_run_at', queueName: deliveryQueue(webhookId) });
    }
    return { events: events.length, deliveries: deliveries.length };
  });
}
