// The one piece of code a plain operation may hand its business rule to: handlers/<area>/<operationId>.ts exports
// it under the operation's name, typed with one of these (the spec's `plain.hook` says in words what it does), by
// way of generated/plain-hooks.ts, which names the operation and gives the context the API's event types and flags.
import type { Knex } from 'knex';
import type { HandlerContext, OperationTypes } from '../handler.js';
import type { Row } from './stored-resource.js';

type Input<Op extends OperationTypes> = Op['input'];

/** retrieve: a rule on the loaded row (throw to refuse). */
export type RetrieveHook<Op extends OperationTypes, Context = HandlerContext> = (row: Row, input: Input<Op>, ctx: Context) => Promise<void> | void;

/** list: a filter the declarations cannot say, added to the list's statement. */
export type ListHook<Op extends OperationTypes, Context = HandlerContext> = (rows: Knex.QueryBuilder, query: Input<Op>['query'], ctx: Context) => Promise<void> | void;

/** delete: a rule or a further write, in the request's transaction, before the row is deleted. */
export type DeleteHook<Op extends OperationTypes, Context = HandlerContext> = (row: Row, input: Input<Op>, ctx: Context) => Promise<void> | void;

/** update: the body as it is to be written (checked and converted; throw to refuse), before the write. */
export type UpdateHook<Op extends OperationTypes, Context = HandlerContext> = (row: Row, body: NonNullable<Input<Op>['body']>, ctx: Context) =>
  Promise<NonNullable<Input<Op>['body']>> | NonNullable<Input<Op>['body']>;

/**
 * list, retrieve (`plain.fill`): fields only code can compute, for the whole page at once. It is made from the
 * request's query before anything is read (a bad parameter is a 400 whatever else is wrong), then sets the fields on
 * the page's views (a retrieve's one) with one statement for them all, never one per row; `rows[i]` is the row
 * `views[i]` was made from. A fill serves every operation whose query has its parameters (a list and its retrieve).
 */
export type Fill<V, Q, Context = HandlerContext> = (query: Q, ctx: Context) => (views: V[], rows: readonly Row[]) => Promise<void>;
