// The deprecated v2 API as one Koa middleware: every path under the v2 base path gets the deprecation headers
// first (so errors carry them too), is authenticated like the Current API, and, when it matches a route of the map,
// runs the mapped Current operation (or the route's adapter) at the newest version and answers in the v2 shape.
import { onCredentialClock } from '../request-clock.js';
import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import Router from '@koa/router';
import { ApiError, invalid } from '../errors.js';
import { authenticate } from '../auth.js';
import { prefetchJsonBody, requestJsonBody } from '../body.js';
import { withConnection } from '../request-db.js';
import { headVersion } from '../versions.js';
import type { OperationDefinition } from '../operation.js';
import { answerJson } from '../pipeline/json-answer.js';
import type { RequestContext, RequestState } from '../request-state.js';
import type { RateLimits } from '../rate-limit.js';
import { CurrentOperations, type CurrentResult } from './call-operation.js';
import { toCurrentInput, withV2Param, type V2Request } from './v2-input.js';
import { pageArgs, walkPages } from './v2-pages.js';
import { fillForV2, renderV2 } from './v2-render.js';
import { setV2Headers, successorUrl } from './v2-headers.js';
import type { CallCurrent, CurrentInput, V2Route, V2Settings } from './route.js';

export interface V2ApiOptions {
  db: Knex;
  operations: OperationDefinition[];
  routes: V2Route[];
  settings: V2Settings;
  /** the Current API's request budgets: a credential spends the same ones on either API */
  rateLimits?: RateLimits;
}

/** Headers of a Current answer that belong on the v2 answer. */
const PASSED_HEADERS = ['idempotent-replayed', 'original-request'];

export function v2Api({ db: pool, operations, routes, settings, rateLimits }: V2ApiOptions): Middleware<RequestState> {
  const current = new CurrentOperations(operations);
  const router = new Router<RequestState>({ prefix: settings.basePath });
  for (const route of routes) {
    router[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'](route.path, (ctx) => serve(ctx, route));
  }
  const dispatch = router.routes();

  async function serve(ctx: RequestContext, route: V2Route): Promise<void> {
    // The metrics label (runtime/metrics.ts): the v2 route's pattern.
    ctx.state.operationId = `v2 ${route.method} ${route.path}`;
    const v2: V2Request = {
      params: ctx.params as Record<string, string>,
      query: ctx.query,
      body: route.method === 'GET' || route.method === 'DELETE' ? undefined : await requestJsonBody(ctx),
    };
    // Until the input is mapped, the successor is the Current operation's path with what the caller sent.
    setV2Headers(ctx, settings, successorUrl(ctx, route.currentPath, v2.params, {}), route.sunset);
    try {
      // Authenticated like the Current API (first, so a refused credential is a 401 whatever else is wrong), on one
      // connection for the whole request.
      await withConnection(pool, async (conn) => {
        ctx.state.db = conn;
        const principal = await authenticate(conn, ctx.get('Authorization') || undefined, ctx.ip);
        ctx.state.principal = principal;
        await rateLimits?.consume(ctx, principal);
        ctx.state.version = headVersion();
        await onCredentialClock(conn, principal.clockId, async () => {
          const input = toCurrentInput(route, settings, v2);
          setV2Headers(ctx, settings, successorUrl(ctx, route.currentPath, input.path, input.query), route.sunset);
          const result = await execute(ctx, conn, route, input, v2);
          for (const name of PASSED_HEADERS) if (result.headers[name]) ctx.set(name, result.headers[name]);
          ctx.status = result.status;
          if (result.status < 300) await fillForV2(conn, route, settings, result.body);
          answerJson(ctx, renderV2(route, settings, result.body));
        });
      });
    } catch (e) {
      throw withV2Param(e, route, settings);
    }
  }

  /** On `db`, the request's connection. */
  async function execute(ctx: RequestContext, db: Knex, route: V2Route, input: CurrentInput, v2: V2Request): Promise<CurrentResult> {
    if (route.adapter) {
      const callOn = (on: Knex): CallCurrent => async (id, given) => (await current.call(ctx, on, id, given)).body;
      const body = await route.adapter({
        input,
        call: callOn(db),
        inTransaction: (work) => db.transaction((trx) => work(callOn(trx), trx)),
      });
      return { status: current.get(route.current).status, body, headers: {} };
    }
    if (route.select) {
      const value = (v2.body as Record<string, unknown>)[route.select.field];
      const allowed = Object.keys(route.select.operations);
      if (typeof value !== 'string' || !allowed.includes(value)) {
        throw invalid(`${route.select.field} must be one of ${allowed.join(', ')}`, route.select.field);
      }
      const id = route.select.operations[value];
      return current.call(ctx, db, id, toCurrentInput(route, settings, v2, id, current.get(id).path));
    }
    if (route.paged) {
      const { defaultPageSize, maxPageSize } = route.paged;
      const args = pageArgs(ctx.query, defaultPageSize, maxPageSize, settings.maxListedItems);
      let headers: Record<string, string> = {};
      const body = await walkPages(async (first, after) => {
        const query = { ...input.query, first: String(first), ...(after ? { after } : {}) };
        const chunk = await current.call(ctx, db, route.current, { ...input, query });
        headers = chunk.headers;
        return chunk.body;
      }, args, maxPageSize, settings.maxListedItems);
      return { status: 200, body, headers };
    }
    return current.call(ctx, db, route.current, input);
  }

  return async (ctx, next) => {
    if (ctx.path !== settings.basePath && !ctx.path.startsWith(`${settings.basePath}/`)) return next();
    // Before anything can fail: an unknown route is a v2 response too. Matched routes set their own (and Sunset).
    setV2Headers(ctx, settings, successorUrl(ctx, '', {}, {}), null);
    prefetchJsonBody(ctx);
    await dispatch(ctx as Parameters<typeof dispatch>[0], async () => undefined);
    if (ctx.body === undefined) {
      throw new ApiError(404, 'not_found', `Unrecognized v2 request URL (${ctx.method} ${ctx.path}); ${settings.guidePath} maps v2 routes to the Current API`);
    }
  };
}
