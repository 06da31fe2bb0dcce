// dispatch_event: one delivery (and its job) per enabled, undeleted subscription that listens for the event, on the
// event's account or, with include_connected_accounts, on its platform.
import type { Knex } from 'knex';
import { addJob } from '../../../runtime/jobs.js';
import { newId } from '../../../runtime/ids.js';

export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';
export const deliveryJobKey = (deliveryId: string) => `deliver:${deliveryId}`;

export async function dispatchEvent(db: Knex, eventId: string): Promise<number> {
  return db.transaction(async (trx) => {
    const event = await trx('events').where({ id: eventId }).forUpdate().first('id', 'type', 'account_id', 'dispatched_at');
    if (!event || event.dispatched_at) return 0;
    const subscriptions = event.account_id ? await trx('webhooks as w')
      .where('w.enabled', true)
      .whereNull('w.deleted_at')
      .whereRaw('? = any(w.events)', [event.type])
      .where((q) => q.where('w.account_id', event.account_id).orWhere((c) => c
        .where('w.include_connected_accounts', true)
        .whereIn('w.account_id', trx('accounts').select('parent_id').where('id', event.account_id))))
      .select('w.id') : [];
    for (const { id: webhookId } of subscriptions) {
      const [delivery] = await trx('webhook_deliveries')
        .insert({ id: newId('whdl_'), webhook_id: webhookId, event_id: event.id, status: 'pending', next_attempt_at: trx.fn.now() })
        .onConflict(['webhook_id', 'event_id']).ignore().returning('id');
      if (delivery) await addJob(trx, DELIVER_WEBHOOK_TASK, { delivery_id: delivery.id }, { jobKey: deliveryJobKey(delivery.id) });
    }
    await trx('events').where({ id: event.id }).update({ dispatched_at: trx.fn.now() });
    return subscriptions.length;
  });
}
