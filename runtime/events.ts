// The outbox: events are rows written in the same transaction as the change that caused them.
import type { Knex } from 'knex';
import { newId } from './ids.js';
import { addJobAtCommit, addJobExpression, jobParams } from './jobs.js';
import { query, writeAtCommit } from './request-db.js';

const RECORD_EVENT = 'insert into events (id, type, account_id, data) values ($1, $2, $3, $4::jsonb)';
// Outside a request: the event and the job that delivers it in one statement.
const RECORD_EVENT_WITH_JOB = `with event as (${RECORD_EVENT} returning id) select (${addJobExpression(5)}).id from event`;

/** `data` is the newest shape of the event's schema; generated/events.ts types `type` with the API's event types. */
export async function recordEvent(db: Knex, type: string, accountId: string | null, data: unknown): Promise<void> {
  const id = newId('evt_');
  const event = [id, type, accountId, JSON.stringify(data)];
  // Delivery starts from a job committed with the event: no event is lost between the write and its fan-out. It runs
  // at the wall's time even when the event happened on a clock: receivers live at real time. In a request both go
  // with the COMMIT (runtime/request-db.ts), the job with the request's others.
  const dispatch = [DISPATCH_EVENT_TASK, { event_id: id }, { jobKey: `dispatch:${id}`, realTime: true }] as const;
  if (addJobAtCommit(db, ...dispatch)) await writeAtCommit(db, RECORD_EVENT, event);
  else await query(db, RECORD_EVENT_WITH_JOB, [...event, ...jobParams(...dispatch)]);
}

/** The task that fans an event out to its subscribers (handlers/webhooks/delivery). */
export const DISPATCH_EVENT_TASK = 'dispatch_event';
