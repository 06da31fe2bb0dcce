// Written by hand, not declared plain: it chooses the events of a range and writes a delivery and a throttled job
// for each, beyond the one row a plain create writes.
import type { Knex } from 'knex';
import type { Handler } from '../../generated/handler.js';
import type { WebhookRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './delivery/dispatch-event-task.js';
import { deliveryQueue } from './delivery/delivery-queue.js';
import { operableWebhook } from './operable-webhook.js';

/** The most events one replay sends: a longer range is replayed in parts. */
export const MAX_REPLAY_EVENTS = 10_000;
const INSERT_CHUNK = 1000;

interface Range { since: Date; until: Date; after?: { created_at: Date; id: string } }

/** since as sent, or after the event of the newest delivery that succeeded (the subscription's creation if none). */
async function rangeOf(db: Knex, webhook: WebhookRow, body: { since?: string; until?: string; since_last_success: boolean }): Promise<Range> {
  if (body.since !== undefined && body.since_last_success) throw invalid('Send since or since_last_success, not both', 'since');
  if (body.since === undefined && !body.since_last_success) throw invalid('since is required (or send since_last_success true)', 'since');
  const until = body.until !== undefined ? new Date(body.until) : new Date((await db.raw('select now() as now')).rows[0].now);
  let range: Range;
  if (body.since !== undefined) range = { since: new Date(body.since), until };
  else {
    const last = await db('webhook_deliveries as d').join('events as e', 'e.id', 'd.event_id')
      .where({ 'd.webhook_id': webhook.id, 'd.status': 'succeeded', 'd.test': false })
      .orderBy([{ column: 'e.created_at', order: 'desc' }, { column: 'e.id', order: 'desc' }]).first('e.id', 'e.created_at');
    range = last ? { since: new Date(last.created_at), until, after: last } : { since: new Date(webhook.created_at), until };
  }
  if (range.until <= range.since) throw invalid('until must be after since (the range replayed is since to until)', 'until');
  return range;
}

/** The events the subscription admits in the range, oldest first: its account's (and its connected accounts' with
 * include_connected_accounts), of its event types, and already fanned out (one not yet will be delivered anyway).
 * Test events have no account (testWebhook.ts), so none is replayed. */
async function eventsIn(db: Knex, webhook: WebhookRow, range: Range): Promise<string[]> {
  const q = db('events as e')
    .where((a) => {
      a.where('e.account_id', webhook.account_id);
      if (webhook.include_connected_accounts) a.orWhereIn('e.account_id', db('accounts').select('id').where('parent_id', webhook.account_id));
    })
    .whereIn('e.type', webhook.events)
    .where('e.created_at', '<', range.until)
    .whereNotNull('e.dispatched_at')
    .orderBy([{ column: 'e.created_at' }, { column: 'e.id' }])
    .limit(MAX_REPLAY_EVENTS + 1);
  if (range.after) q.whereRaw('(e.created_at, e.id) > (?, ?)', [range.after.created_at, range.after.id]);
  else q.where('e.created_at', '>=', range.since);
  return q.pluck('e.id');
}

/**
 * POST /webhooks/{id}/replay: one new delivery per event, whose first attempt is due 1/per_second after the one
 * before (the jobs' run times are the throttle, so any number of workers keeps it), sent at the wall's time.
 */
export const replayWebhook: Handler<'replayWebhook'> = async ({ path, body }, ctx) => {
  const webhook = await operableWebhook(ctx, path.id, 'replaying events to it');
  const range = await rangeOf(ctx.db, webhook, body);
  const eventIds = await eventsIn(ctx.db, webhook, range);
  if (eventIds.length > MAX_REPLAY_EVENTS) {
    throw invalid(`The range holds more than ${MAX_REPLAY_EVENTS} events: replay it in parts (a later since or an earlier until)`, 'since');
  }
  const replayId = newId('whrp_');
  await ctx.db('webhook_replays').insert({
    id: replayId, account_id: webhook.account_id, webhook_id: webhook.id, since: range.since, until: range.until,
    since_last_success: body.since_last_success, event_count: eventIds.length, per_second: body.per_second,
  });
  const start = Date.now();
  const deliveries = eventIds.map((eventId, i) => ({
    id: newId('whdl_'), webhook_id: webhook.id, event_id: eventId, replay_id: replayId, status: 'pending',
    next_attempt_at: new Date(start + Math.floor((i * 1000) / body.per_second)),
  }));
  for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
    const chunk = deliveries.slice(i, i + INSERT_CHUNK);
    await ctx.db('webhook_deliveries').insert(chunk);
    // The chunk's jobs in one statement: runtime/jobs.ts's app_add_job (its form naming a queue: the subscription's,
    // delivery-queue.ts), at the wall's time.
    await ctx.db.raw(`select public.app_add_job(?, json_build_object('delivery_id', u.id), u.run_at, 25, u.job_key, 'replace', true, ?)
      from unnest(?::text[], ?::timestamptz[], ?::text[]) as u(id, run_at, job_key)`,
    [DELIVER_WEBHOOK_TASK, deliveryQueue(webhook.id), chunk.map((d) => d.id), chunk.map((d) => d.next_attempt_at.toISOString()),
      chunk.map((d) => deliveryJobKey(d.id))]);
  }
  return readView(ctx.db, resources.WebhookReplay, replayId);
};
