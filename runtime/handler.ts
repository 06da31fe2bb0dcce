// What a handler is given and must return. Input is the head-version shape, already validated. Event types, version
// flags and operations are plain strings and shapes here; generated/handler.ts types them with the API's own.
import type { Knex } from 'knex';
import type { Access } from './access.js';
import type { Principal } from './principal.js';
import type { JobOptions } from './jobs.js';

// flag() and emit() are methods, not function-typed properties: a context typed with the API's names and one typed
// with plain strings then stand for each other.
export interface HandlerContext<Event extends string = string, Flag extends string = string> {
  /** the request's transaction for writing operations; the pool for reads */
  db: Knex;
  principal: Principal;
  access: Access;
  /** the resolved version; handlers ask flag() rather than compare dates */
  version: string;
  flag(name: Flag): boolean;
  addJob(task: string, payload: unknown, options?: JobOptions): Promise<void>;
  /** records an event in the outbox, in the request's transaction */
  emit(type: Event, accountId: string | null, data: unknown): Promise<void>;
  /** the operation's default page size, for list operations */
  defaultPageSize: number;
  requestId: string;
  ip: string;
}

/** An operation's types: its input (path, query and body) and its output. */
export interface OperationTypes {
  input: { path: unknown; query: unknown; body: unknown };
  output: unknown;
}

export type Handler<Op extends OperationTypes, Context = HandlerContext> = (
  input: Op['input'],
  ctx: Context,
) => Promise<Op['output']>;

/** What a scaffolded handler throws until its business logic is written; `npm run check` fails while one remains. */
export function notWrittenYet(operationId: string): Error {
  return new Error(`${operationId} is not written yet`);
}
