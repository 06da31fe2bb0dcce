// What a write does besides its own rows: background jobs and outbox events, both on the writer's connection so they
// commit (or roll back) with it. Operations get these through their HandlerContext (which extends this class); routes
// outside the API (the sandbox's pages, background jobs) build one from their transaction with effectsOn.
import type { Knex } from 'knex';
import { addJob, type JobOptions } from './jobs.js';
import { recordEvent } from './events.js';

/** Its methods are called on it (`fx.emit(...)`), never taken off it: they read `this.db`. `Event`: the event types
 * emit() takes (generated/effects.ts gives the API's). */
export class Effects<Event extends string = string> {
  constructor(readonly db: Knex) {}

  addJob(task: string, payload: unknown, options?: JobOptions): Promise<void> {
    return addJob(this.db, task, payload, options);
  }

  emit(type: Event, accountId: string | null, data: unknown): Promise<void> {
    return recordEvent(this.db, type, accountId, data);
  }
}

export function effectsOn(db: Knex): Effects {
  return new Effects(db);
}
