// The one piece of code a plain operation may hand its business rule to: handlers/<area>/<operationId>.ts exports
// it under the operation's name, typed with one of these (the spec's `plain.hook` says in words what it does).
import type { Knex } from 'knex';
import type { Operations } from '../../generated/types.js';
import type { HandlerContext } from '../handler.js';
import type { Row } from './stored-resource.js';

type Input<K extends keyof Operations> = Operations[K]['input'];

/** retrieve: a rule on the loaded row (throw to refuse). */
export type RetrieveHook<K extends keyof Operations> = (row: Row, input: Input<K>, ctx: HandlerContext) => Promise<void> | void;

/** list: a filter the declarations cannot say, added to the list's statement. */
export type ListHook<K extends keyof Operations> = (rows: Knex.QueryBuilder, query: Input<K>['query'], ctx: HandlerContext) => Promise<void> | void;

/** delete: a rule or a further write, in the request's transaction, before the row is deleted. */
export type DeleteHook<K extends keyof Operations> = (row: Row, input: Input<K>, ctx: HandlerContext) => Promise<void> | void;

/** update: the body as it is to be written (checked and converted; throw to refuse), before the write. */
export type UpdateHook<K extends keyof Operations> = (row: Row, body: NonNullable<Input<K>['body']>, ctx: HandlerContext) =>
  Promise<NonNullable<Input<K>['body']>> | NonNullable<Input<K>['body']>;

/**
 * list, retrieve (`plain.fill`): fields only code can compute, for the whole page at once. It is made from the
 * request's query before anything is read (a bad parameter is a 400 whatever else is wrong), then sets the fields on
 * the page's views (a retrieve's one) with one statement for them all, never one per row; `rows[i]` is the row
 * `views[i]` was made from. A fill serves every operation whose query has its parameters (a list and its retrieve).
 */
export type Fill<V, Q> = (query: Q, ctx: HandlerContext) => (views: V[], rows: readonly Row[]) => Promise<void>;
