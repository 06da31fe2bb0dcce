// The outbox: events are rows written in the same transaction as the change that caused them.
import type { Knex } from 'knex';
import { newId } from './ids.js';
import { addJobExpression, jobParams } from './jobs.js';
import { writeAtCommit } from './request-db.js';

// One statement: the event and the job that delivers it (sent with the COMMIT in a request: runtime/request-db.ts writeAtCommit).
const RECORD_EVENT = `with event as (insert into events (id, type, account_id, data) values ($1, $2, $3, $4::jsonb) returning id)
  select (${addJobExpression(5)}).id from event`;

/** `data` is the newest shape of the event's schema; generated/events.ts types `type` with the API's event types. */
export async function recordEvent(db: Knex, type: string, accountId: string | null, data: unknown): Promise<void> {
  const id = newId('evt_');
  // Delivery starts from a job committed with the event: no event is lost between the write and its fan-out. It runs
  // at the wall's time even when the event happened on a clock: receivers live at real time.
  await writeAtCommit(db, RECORD_EVENT, [id, type, accountId, JSON.stringify(data),
    ...jobParams(DISPATCH_EVENT_TASK, { event_id: id }, { jobKey: `dispatch:${id}`, realTime: true })]);
}

/** The task that fans an event out to its subscribers (handlers/webhooks/delivery). */
export const DISPATCH_EVENT_TASK = 'dispatch_event';
