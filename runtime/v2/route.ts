// What generated/v2-routes.ts declares per v2 route, and what a hand-written adapter (handlers/v2/) is given.
import type { Knex } from 'knex';

export interface V2Settings {
  basePath: string;
  /** Unix seconds: the Deprecation header's date */
  deprecatedAt: number;
  /** v2 resources are Current resources rendered at this version */
  renderVersion: string;
  guidePath: string;
  /** the most items one v2 list request walks (and counts for total_page) */
  maxListedItems: number;
  /** v2 name -> Current name, for query and body fields */
  renames: Record<string, string>;
}

/** The head-shape input of one Current operation call. */
export interface CurrentInput {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  body: Record<string, unknown> | undefined;
}

/** Runs a Current operation (its whole pipeline) and gives back its head-shape result. */
export type CallCurrent = (operationId: string, input: Partial<CurrentInput>) => Promise<any>;

export interface V2AdapterContext {
  /** the route's input, already mapped to the Current names */
  input: CurrentInput;
  call: CallCurrent;
  /** runs `work` in one transaction: every call inside it commits or rolls back together */
  inTransaction<T>(work: (call: CallCurrent, db: Knex) => Promise<T>): Promise<T>;
}

/** A hand-written v2 adapter: returns the head-shape resource the route renders (as the `current` operation's). */
export type V2Adapter = (ctx: V2AdapterContext) => Promise<unknown>;

export interface V2Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Koa form (:param), relative to the v2 base path */
  path: string;
  v2Path: string;
  current: string;
  currentMethod: string;
  currentPath: string;
  /** Current path parameter -> `path.x` or `query.x` of the v2 request */
  pathFrom: Record<string, string>;
  queryFrom: Record<string, string>;
  bodyFixed: Record<string, unknown>;
  select: { field: string; operations: Record<string, string> } | null;
  adapter: V2Adapter | null;
  sunset: string | null;
  render: { shape: 'object' | 'list' | 'data' | 'as_is'; schema: string | null };
  paged: { defaultPageSize: number; maxPageSize: number } | null;
}
