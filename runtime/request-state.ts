// What a request carries from one middleware to the next (Koa's ctx.state), declared in one place: who sets each
// key, and who reads it. The app is a Koa<RequestState>, so a key nobody declared does not type-check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParameterizedContext } from 'koa';
import type { Knex } from 'knex';
import type { Principal } from './principal.js';

export interface RequestState {
  /** set first, for every request (app.ts): the Request-Id header, the logs and every error envelope */
  requestId: string;
  /** the request's own pooled connection (request-db.ts withConnection), from authentication on */
  db?: Knex;
  /** the authenticated caller (auth.ts), for requests to the Current and v2 APIs */
  principal?: Principal;
  /** the API version the request is served at: the header's, the credential's pin, or the default (versions.ts) */
  version?: string;
  /** the metrics label (metrics.ts) and the api log's operation: bounded, unlike the path */
  operationId?: string;
  /** the path template of the route that answered (an operation mounted at several paths has several), for api logs */
  operationPath?: string;
  /** an operation's path was asked for at a version where it does not exist: the 404 says which version */
  absentAtVersion?: string;
  /** the answer was an idempotent replay, counted by the metrics */
  idempotentReplay?: boolean;
  /** the JSON body, read while the request waits for its connection (body.ts prefetchJsonBody) */
  body?: Promise<unknown>;
  /** a page's request to a client-id operation: its origin, and whether the caller's account allows it (cors.ts) */
  cors?: { origin: string; allowed: boolean };
  /** the budget a 429 refused the request under (rate-limit.ts), counted by the metrics */
  rateLimitedBudget?: string;
}

/** A request's Koa context, with its state typed. */
export type RequestContext = ParameterizedContext<RequestState>;

/**
 * What the Current API's request path (runtime/app.ts's API middleware, the routes, the operation's steps) reads and
 * writes of a request: the part of Koa's context it uses. Koa's context is one (the other routes, the v2 API,
 * replays); the API lane's is the other (runtime/api-lane.ts: the Current API's operations served without Koa).
 */
export interface ApiContext {
  state: RequestState;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** the path, not decoded, without the query */
  readonly path: string;
  /** the query as sent, without its `?` */
  readonly querystring: string;
  readonly query: Record<string, string | string[] | undefined>;
  /** the matched route's path parameters, decoded (runtime/segment-router.ts) */
  params?: Record<string, string>;
  readonly ip: string;
  status: number;
  body: unknown;
  /** the request's media type without parameters ('' when none) and its Content-Length (undefined when none) */
  readonly request: { readonly type: string; readonly length: number | undefined };
  /** a request header ('' when absent) */
  get(field: string): string;
  /** a response header */
  set(field: string, value: string): void;
  /** adds a request header to the response's Vary */
  vary(field: string): void;
}

/** A middleware of the Current API's request path: Koa's shape on an ApiContext, so that Koa and the API lane
 * (runtime/api-lane.ts) both run it (the envelope and the API entry in runtime/app.ts, the routes and their handlers). */
export type ApiMiddleware = (ctx: ApiContext, next: () => Promise<unknown>) => Promise<unknown>;

/** The caller: authentication sets it before any operation runs, so its absence is a fault of the app's assembly. */
export function callerOf(state: RequestState): Principal {
  if (!state.principal) throw new Error('An operation ran on a request that was not authenticated');
  return state.principal;
}
