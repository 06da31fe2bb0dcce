// In-process replays of reads through the app's own middleware (runtime/app.ts): routing, version resolution, the
// operation's steps (runtime/pipeline/run-operation.ts) and the error envelope, exactly as a request from the wire,
// but as a caller given in-process (never a credential from a header) on a connection given in-process, in a
// read-only transaction that is rolled back. Replays are not api-logged, rate-limited or authenticated: they are the
// platform's own requests on a key's behalf (handlers/api_logs/shadow-replay.ts), not the key's.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import compose from 'koa-compose';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Principal } from './principal.js';
import type { ApiContext, RequestContext, RequestState } from './request-state.js';
import { inReadOnlyTransaction } from './request-db.js';
import { api } from './api-definition.js';

/** Only code in this process can set it: a symbol on the request object, which no header or URL can reach. */
const REPLAY = Symbol('in-process replay');

export interface Replay {
  principal: Principal;
  /** a request's own connection (runtime/request-db.ts withConnection), in the replay's read-only transaction */
  db: Knex;
}

/** The replay a request is, or undefined for every request from the wire. */
export function replayOf(ctx: ApiContext): Replay | undefined {
  return (ctx.req as unknown as { [REPLAY]?: Replay })[REPLAY];
}

let served: Koa<RequestState> | undefined;

/** The app replays go through: runtime/app.ts createApp calls it (the last app made in a process serves them). */
export function serveReplaysWith(app: Koa<RequestState>): void {
  served = app;
}

export interface ReplayAnswer {
  status: number;
  body: unknown;
}

/** GET `target` (a path below the API's base path, with its query) as `principal` at `version`, on `db` (a request's
 * own connection), in a read-only transaction rolled back after it; the status and JSON body it answered. */
export async function replayRead(db: Knex, principal: Principal, version: string, target: string): Promise<ReplayAnswer> {
  if (!served) throw new Error('No app serves replays in this process: runtime/app.ts createApp must have run');
  const app = served;
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = `${api().spec.basePath}${target}`;
  req.headers = { host: 'replay.internal', 'api-version-date': version };
  (req as unknown as { [REPLAY]: Replay })[REPLAY] = { principal, db };
  const ctx = app.createContext(req, new ServerResponse(req)) as RequestContext;
  ctx.status = 404; // as Koa's own request handling starts every response
  return inReadOnlyTransaction(db, async () => {
    await compose(app.middleware)(ctx);
    const text = typeof ctx.body === 'string' ? ctx.body : ctx.body === undefined || ctx.body === null ? null : JSON.stringify(ctx.body);
    return { status: ctx.status, body: text === null || text === '' ? null : JSON.parse(text) };
  });
}
