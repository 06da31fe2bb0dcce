// The outbox: events are rows written in the same transaction as the change that caused them.
import type { Knex } from 'knex';
import { newId } from './ids.js';
import { addJob } from './jobs.js';
import type { EventType } from '../generated/spec-data.js';

/** Only names in the areas' events catalogues type-check; `data` is the newest shape of the event's schema. */
export async function recordEvent(db: Knex, type: EventType, accountId: string | null, data: unknown): Promise<void> {
  const id = newId('evt_');
  await db('events').insert({ id, type, account_id: accountId, data: JSON.stringify(data) });
  // Delivery starts from a job committed with the event: no event is lost between the write and its fan-out.
  await addJob(db, DISPATCH_EVENT_TASK, { event_id: id }, { jobKey: `dispatch:${id}` });
}

/** The task that fans an event out to its subscribers (handlers/webhooks/delivery). */
export const DISPATCH_EVENT_TASK = 'dispatch_event';
