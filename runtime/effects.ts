// What a write does besides its own rows: background jobs and outbox events, both on the writer's connection so they
// commit (or roll back) with it. Operations get these through their HandlerContext; routes outside the API (the
// sandbox's pages) build the same from their transaction.
import type { Knex } from 'knex';
import type { HandlerContext } from './handler.js';
import { addJob } from './jobs.js';
import { recordEvent } from './events.js';

export type Effects = Pick<HandlerContext, 'db' | 'addJob' | 'emit'>;

export function effectsOn(db: Knex): Effects {
  return {
    db,
    addJob: (task, payload, options) => addJob(db, task, payload, options),
    emit: (type, accountId, data) => recordEvent(db, type, accountId, data),
  };
}
