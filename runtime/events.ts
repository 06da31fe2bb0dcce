// The outbox: events are rows written in the same transaction as the change that caused them.
import type { Knex } from 'knex';
import { newId } from './ids.js';

export async function recordEvent(db: Knex, type: string, accountId: string | null, data: unknown): Promise<void> {
  await db('events').insert({ id: newId('evt_'), type, account_id: accountId, data: JSON.stringify(data) });
}
