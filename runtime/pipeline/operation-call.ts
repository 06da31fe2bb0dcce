// One call of an operation, as the pipeline's steps see it: the operation as it is at the caller's version, the
// caller, and the request's connection. The Current API and the v2 API each make one and pass it through the steps.
import type { Knex } from 'knex';
import type { OperationDefinition, VersionedInput } from '../operation.js';
import type { Principal } from '../principal.js';
import type { ApiContext } from '../request-state.js';

export interface OperationCall {
  op: OperationDefinition;
  /** the operation at `version`: its validators, request upgrade and response downgrade */
  at: VersionedInput;
  version: string;
  /** the request's own connection (runtime/request-db.ts), or the pool where none was taken */
  db: Knex;
  principal: Principal;
  /** the Koa request: its id and address, read only when a handler asks for them */
  request: ApiContext;
  /** the version's compiled serialiser of a success (only the schema's fields), when the answer is written with one:
   * an idempotent write's stored answer is its text, written once for both (CallOutcome.text) */
  serialize?: (body: unknown) => string;
}

/** The head-shape input the handler gets, once validated and upgraded. */
export interface OperationInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** What a call answered: its status and body (a success or a kept refusal), and whether it was an idempotent replay. */
export interface CallOutcome {
  status: number;
  body: unknown;
  replayed: boolean;
  /** the body as the answer's text, when it was written already (an idempotent write stores it) */
  text?: string;
}

/** Where a step writes response headers: the Koa response for the Current API, a record for the v2 layer. */
export interface HeaderSink {
  set(name: string, value: string): void;
}
