// The outbox: events are rows written in the same transaction as the change that caused them.
import type { Knex } from 'knex';
import { newId } from './ids.js';
import type { EventType } from '../generated/spec-data.js';

/** Only names in the areas' events catalogues type-check; `data` is the newest shape of the event's schema. */
export async function recordEvent(db: Knex, type: EventType, accountId: string | null, data: unknown): Promise<void> {
  await db('events').insert({ id: newId('evt_'), type, account_id: accountId, data: JSON.stringify(data) });
}
