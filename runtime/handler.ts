// What a handler is given and must return. Input is the head-version shape, already validated.
import type { Knex } from 'knex';
import type { Operations } from '../generated/types.js';
import type { EventType, VersionFlag } from '../generated/spec-data.js';
import type { Access } from './access.js';
import type { Principal } from './principal.js';
import type { JobOptions } from './jobs.js';

export interface HandlerContext {
  /** the request's transaction for writing operations; the pool for reads */
  db: Knex;
  principal: Principal;
  access: Access;
  /** the resolved version; handlers ask flag() rather than compare dates */
  version: string;
  flag(name: VersionFlag): boolean;
  addJob(task: string, payload: unknown, options?: JobOptions): Promise<void>;
  /** records an event in the outbox, in the request's transaction */
  emit(type: EventType, accountId: string | null, data: unknown): Promise<void>;
  /** the operation's default page size, for list operations */
  defaultPageSize: number;
  requestId: string;
  ip: string;
}

export type Handler<K extends keyof Operations> = (
  input: Operations[K]['input'],
  ctx: HandlerContext,
) => Promise<Operations[K]['output']>;

/** What a scaffolded handler throws until its business logic is written; `npm run check` fails while one remains. */
export function notWrittenYet(operationId: string): Error {
  return new Error(`${operationId} is not written yet`);
}
