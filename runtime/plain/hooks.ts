// The one piece of code a plain operation may hand its business rule to: handlers/<area>/<operationId>.ts exports
// it under the operation's name, typed with one of these (the spec's `plain.hook` says in words what it does), by
// way of generated/plain-hooks.ts, which names the operation and gives the context the API's event types and flags.
import type { Knex } from 'knex';
import type { HandlerContext, OperationTypes } from '../handler.js';
import type { Row } from './stored-resource.js';

type Input<Op extends OperationTypes> = Op['input'];

// A hook gets its resource's row, `R` (generated/plain-hooks.ts names each operation's: generated/rows.ts). The
// runtime reads every resource's rows as Row, so each hook is declared as a method, whose parameters TypeScript
// compares both ways: the runtime's options take a hook typed with its resource's row.

/** retrieve: a rule on the loaded row (throw to refuse). */
export type RetrieveHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(row: R, input: Input<Op>, ctx: Context): Promise<void> | void;
}['hook'];

/** list: a filter the declarations cannot say, added to the list's statement; a list of a parent's rows
 * (`plain.parent`) is given the parent's row too, once it was found and its access checked. */
export type ListHook<Op extends OperationTypes, Context = HandlerContext> = (rows: Knex.QueryBuilder, query: Input<Op>['query'], ctx: Context,
  parent?: Row) => Promise<void> | void;

/** delete: a rule or a further write, in the request's transaction, before the row is deleted. */
export type DeleteHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(row: R, input: Input<Op>, ctx: Context): Promise<void> | void;
}['hook'];

/** update: the body as it is to be written (checked and converted; throw to refuse), before the write. */
export type UpdateHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(row: R, body: NonNullable<Input<Op>['body']>, ctx: Context): Promise<NonNullable<Input<Op>['body']>> | NonNullable<Input<Op>['body']>;
}['hook'];

/** create: the body's checks (throw to refuse) before the insert, and the columns to write beyond or over the body's
 * (a default, a normalised value, a column no body field names). */
export type CreateHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(body: NonNullable<Input<Op>['body']>, ctx: Context): Promise<CreateColumns<R> | void> | CreateColumns<R> | void;
}['hook'];

/** column -> the value inserted (JSON text for a jsonb column; a Knex.Raw for SQL) */
export type CreateColumns<R> = Partial<Record<keyof R & string, unknown>>;

/**
 * transition: the rule of a state move, on the locked row once the state machine allows the move and before the
 * write (throw to refuse). It may write elsewhere (a ledger posting, a refund) and returns what the move also does:
 * further columns to `set` with the state, and a step to run `after` the write on the resource as it now is, before
 * the declared event is recorded.
 */
export type TransitionHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(row: R, input: Input<Op>, ctx: Context): Promise<TransitionStep<Op> | void> | TransitionStep<Op> | void;
}['hook'];

export interface TransitionStep<Op extends OperationTypes> {
  /** column -> value (a Knex.Raw for SQL, e.g. the database's clock) */
  set?: Record<string, unknown>;
  after?: (view: Op['output']) => Promise<void> | void;
}

/**
 * retrieve, transition, action, delete (`plain.find`): the row the path's id names, found and checked as only code
 * can say (another form of id, an owner no column of the account holds), locked for the request's transaction when
 * `lock`; it throws the 404 or 403 itself.
 */
export type Finder<Context = HandlerContext, R = Row> = {
  find(ctx: Context, id: string, how: { scopes: readonly string[]; lock: boolean }): Promise<R>;
}['find'];

/**
 * action: the whole rule of an operation on the locked row (throw to refuse), writing what it must (this row, others,
 * jobs, events); the runtime reads the row again afterwards for the answer. It may return a step to run `after`,
 * on the resource as it now is, before the declared event is recorded; or say that it changed nothing
 * (`unchanged: true`), so the declared event is not recorded (a PATCH sending what is already there).
 */
export type ActionHook<Op extends OperationTypes, Context = HandlerContext, R = Row> = {
  hook(row: R, input: Input<Op>, ctx: Context): Promise<ActionStep<Op> | void> | ActionStep<Op> | void;
}['hook'];

export interface ActionStep<Op extends OperationTypes> {
  after?: (view: Op['output']) => Promise<void> | void;
  unchanged?: true;
}

/**
 * list, retrieve, transition, action (`plain.fill`): fields only code can compute, for the whole page at once. It is made from the
 * request's query before anything is read (a bad parameter is a 400 whatever else is wrong), then sets the fields on
 * the page's views (a retrieve's one) with one statement for them all, never one per row; `rows[i]` is the row
 * `views[i]` was made from. A fill serves every operation whose query has its parameters (a list and its retrieve).
 */
export type Fill<V, Q, Context = HandlerContext, R = Row> = (query: Q, ctx: Context) => {
  fill(views: V[], rows: readonly R[]): Promise<void>;
}['fill'];
