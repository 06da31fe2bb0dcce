// dispatch_event: one delivery (and its job) per enabled, undeleted subscription that listens for the event, on the
// event's account or, with include_connected_accounts, on its platform. A subscription the platform disabled (its
// receiver gone or failing, subscription-health.ts) gets the delivery too, failed without a send: nothing it missed
// is lost, and it can be resent or replayed once it is enabled again.
import type { Knex } from 'knex';
import { addJob } from '../../../runtime/jobs.js';
import { newId } from '../../../runtime/ids.js';
import { deliveryQueue } from './delivery-queue.js';
import { clearEndedWindow } from '../side-by-side.js';

export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';
export const deliveryJobKey = (deliveryId: string) => `deliver:${deliveryId}`;

type EventToDispatch = { id: string; type: string; account_id: string | null; created_at: Date };

/**
 * Fans out the event and, first, every earlier event of its account not fanned out yet, oldest first: dispatch jobs
 * run side by side, so without this a later event's delivery could be queued, and sent, before an earlier one's
 * exists (a subscription's queue orders only the jobs it has). The events are locked in that same order, so two
 * dispatchers of one account wait for each other and never deadlock; one that waited finds what the other did.
 * Events of one transaction share a time and go out in id order.
 */
export async function dispatchEvent(db: Knex, eventId: string): Promise<number> {
  return db.transaction(async (trx) => {
    const event = await trx('events').where({ id: eventId }).first('id', 'account_id', 'created_at', 'dispatched_at');
    if (!event || event.dispatched_at) return 0;
    const batch: EventToDispatch[] = await trx('events')
      .where((q) => event.account_id
        ? q.where('account_id', event.account_id).whereRaw('(created_at, id) <= (?, ?)', [event.created_at, event.id])
        : q.where('id', event.id))
      .whereNull('dispatched_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(DISPATCH_BATCH)
      .forUpdate()
      .select('id', 'type', 'account_id', 'created_at');
    let subscriptions = 0;
    for (const each of batch) subscriptions += await fanOut(trx, each);
    if (batch.length) await trx('events').whereIn('id', batch.map((e) => e.id)).update({ dispatched_at: trx.fn.now() });
    return subscriptions;
  });
}

// A backlog longer than this (a worker down for a while) goes out over several jobs, still oldest first: the
// remaining events' own jobs, or the sweep's, take the next batch.
const DISPATCH_BATCH = 200;

async function fanOut(trx: Knex.Transaction, event: EventToDispatch): Promise<number> {
  const subscriptions = event.account_id ? await trx('webhooks as w')
    .where((q) => q.where('w.enabled', true).orWhereNotNull('w.disabled_reason'))
    .whereNull('w.deleted_at')
    .whereRaw('? = any(w.events)', [event.type])
    .where((q) => q.where('w.account_id', event.account_id).orWhere((c) => c
      .where('w.include_connected_accounts', true)
      .whereIn('w.account_id', trx('accounts').select('parent_id').where('id', event.account_id!))))
    .select('w.id', 'w.enabled', trx.raw(`case when w.side_by_side_until > now()
      then to_char(w.side_by_side_version, 'YYYY-MM-DD') end as second_version`), trx.raw('w.side_by_side_until <= now() as window_ended')) : [];
  // In its subscription's queue, due at the event's time: a subscription's deliveries run in the order of their events.
  const runAt = new Date(Math.min(new Date(event.created_at).getTime(), Date.now()));
  for (const { id: webhookId, enabled, second_version: secondVersion, window_ended: windowEnded } of subscriptions) {
    // A side-by-side window past its until ends here, keeping the pin (side-by-side.ts).
    if (windowEnded) await clearEndedWindow(trx, webhookId);
    // null: at the pin when sent; during a side-by-side window, a second delivery at its version too. Both are in
    // the subscription's one queue: they go to the same url, and a failed attempt waits as a retry job without
    // holding the queue, so a receiver failing one rendering does not hold back the other.
    for (const version of secondVersion ? [null, secondVersion] : [null]) {
      const [delivery] = await trx('webhook_deliveries')
        .insert({ id: newId('whdl_'), webhook_id: webhookId, event_id: event.id, api_version_date: version, ...(enabled
          ? { status: 'pending', next_attempt_at: trx.fn.now() } : { status: 'failed', next_attempt_at: null }) })
        // once per subscription, event and version (a replay's deliveries of the same event are outside this index:
        // migrations 610 and 630)
        .onConflict(trx.raw('(webhook_id, event_id, api_version_date) where replay_id is null')).ignore().returning('id');
      if (delivery && enabled) {
        await addJob(trx, DELIVER_WEBHOOK_TASK, { delivery_id: delivery.id },
          { jobKey: deliveryJobKey(delivery.id), runAt, queueName: deliveryQueue(webhookId) });
      }
    }
  }
  return subscriptions.length;
}
