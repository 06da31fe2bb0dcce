// The Koa application: request id, one log line per request, the error envelope and request metrics; the routes
// without credentials (health, readiness, metrics, the documentation site, the OpenAPI documents); then routing,
// CORS for client-id operations, authentication, rate limits, version resolution and the generated operations.
import { onCredentialClock } from './request-clock.js';
import Koa from 'koa';
import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Middleware } from 'koa';
import { ApiError } from './errors.js';
import { fromDatabaseError } from './database-errors.js';
import { newRequestId } from './ids.js';
import { authenticate } from './auth.js';
import { withConnection } from './request-db.js';
import { prefetchJsonBody } from './body.js';
import { resolveVersion } from './versions.js';
import type { OperationDefinition } from './operation.js';
import { runOperation } from './pipeline/run-operation.js';
import { errorBody } from './pipeline/error-envelope.js';
import type { RequestListener } from 'node:http';
import type { ApiContext, ApiMiddleware, RequestContext, RequestState } from './request-state.js';
import { apiLane } from './api-lane.js';
import { segmentRouter } from './segment-router.js';
import { openApiPath, serveOpenApi } from './openapi-documents.js';
import { HEALTH_PATH, READY_PATH, readinessProbes } from './readiness.js';
import type { ApiLogWriter } from './api-log.js';
import { METRICS_PATH, metricsEndpoint, requestMetrics, type MetricsOptions, type RequestMetrics } from './metrics.js';
import type { RateLimits } from './rate-limit.js';
import type { serveDocs as ServeDocs } from './docs/docs-routes.js';
import { DOCS_PATH } from './docs/docs-path.js';
import { answerPreflight, checkCorsOrigin, finishCorsResponse, startCorsRequest } from './cors.js';
import { api } from './api-definition.js';
import { secretPathRedactor, type SecretRoute } from './secret-paths.js';
import { replayOf, serveReplaysWith } from './replay.js';

/** A route outside the API's base path: no authentication, no version; errors still get the envelope. */
export interface ExtraRoute {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** the path's parameters that are bearer secrets: request logs write them as [redacted] (runtime/secret-paths.ts) */
  secretParams?: readonly string[];
  handle(ctx: RequestContext, db: Knex): Promise<void>;
}

/** Middleware serving another API beside the Current one (the v2 legacy API), over the same operations; with the
 * routes of its paths that carry a secret (runtime/secret-paths.ts). */
export type Mount = ((served: { db: Knex; operations: OperationDefinition[]; rateLimits?: RateLimits }) => Middleware<RequestState>)
  & { secretRoutes?: readonly SecretRoute[] };

export interface AppOptions {
  db: Knex;
  operations: OperationDefinition[];
  logger: Logger;
  extraRoutes?: ExtraRoute[];
  mounts?: Mount[];
  /** whether the server has begun shutting down: GET /ready then answers 503 (runtime/server.ts close()) */
  stopping?: () => boolean;
  /** GET /metrics: its token and how the processes' counts are gathered (runtime/metrics.ts) */
  metrics?: MetricsOptions;
  /** where authenticated requests of the Current API are logged, in batches (runtime/api-log.ts); none when absent */
  apiLogs?: ApiLogWriter;
  /** this process's request counters; made here unless the caller shares them (bin/api-process.ts, for the cluster) */
  requestMetrics?: RequestMetrics;
  /** request budgets per credential (runtime/rate-limit.ts); none when absent */
  rateLimits?: RateLimits;
}

// Loaded on its first request: the site (marked, the reference and changelog pages) is not what a start serves, and
// its modules were ~5 ms of an API process's start.
let docsSite: Promise<typeof ServeDocs> | undefined;
const serveDocs = async (ctx: RequestContext): Promise<boolean> =>
  (await (docsSite ??= import('./docs/docs-routes.js').then((site) => site.serveDocs)))(ctx);

const ROUTER_METHOD = { GET: 'get', POST: 'post', PUT: 'put' } as const;

/** The app: Koa's, and the server's request listener, which serves the Current API's operations from the wire through
 * the API lane (runtime/api-lane.ts) and everything else through Koa. */
export interface App {
  koa: Koa<RequestState>;
  listener: RequestListener;
}

export function createApp(options: AppOptions): App {
  const { db, operations, logger, extraRoutes = [], mounts = [], stopping = () => false } = options;
  const app = new Koa<RequestState>({ proxy: false });
  const probes = readinessProbes({ db, stopping });
  const metrics = options.requestMetrics ?? requestMetrics();
  const { basePath } = api().spec;
  const openApi = openApiPath();
  const serveMetrics = metricsEndpoint(db, metrics, options.metrics);
  const routes = segmentRouter(basePath, operations.map((op) => ({ method: op.method, path: op.path, handle: runOperation(op, db), name: op.id })));
  // The operations a page may call with a client id: the only ones that answer CORS (runtime/cors.ts).
  // Api logs name the path template the caller used (/payments/{id}), never the requested path: the route that
  // answered (runtime/pipeline/run-operation.ts sets it), else the one matched; an operation that moved or has an alias has several.
  // Worked out once per route (bounded: the routes' own paths), not per request.
  const templates = new Map<string, string>();
  const templateOf = (path: string) => {
    let template = templates.get(path);
    if (template === undefined) templates.set(path, template = path.replace(/:(\w+)/g, '{$1}'));
    return template;
  };
  const apiLogs = options.apiLogs;
  // Request logs write paths with their declared secrets redacted; never the query (runtime/secret-paths.ts).
  const loggedPath = secretPathRedactor([...extraRoutes, ...mounts.flatMap((m) => m.secretRoutes ?? []),
    ...operations.map((op) => ({ path: `${basePath}${op.path}`, secretParams: op.secretParams }))]);
  // A read's path and query as asked, for the shadow replay (migrations/640_api_log_targets.ts); none for a path
  // holding a secret, which is never stored.
  const withSecrets = new Set(operations.filter((op) => op.secretParams?.length).map((op) => op.id));
  const targetOf = (ctx: ApiContext, operationId: string) => (ctx.method !== 'GET' || withSecrets.has(operationId)
    || !ctx.path.startsWith(basePath) ? null : `${ctx.path.slice(basePath.length)}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  const clientRoutes = segmentRouter(basePath, operations.filter((op) => op.auth.includes('client'))
    .map((op) => ({ method: op.method, path: op.path, handle: async () => {}, name: op.id })));

  // The request's envelope: its id, the error envelope, the 404 of what nothing answered, metrics and logs.
  const envelope: ApiMiddleware = async (ctx, next) => {
    const requestId = newRequestId();
    const started = performance.now();
    ctx.state.requestId = requestId;
    ctx.set('Request-Id', requestId);
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) {
        const absent = ctx.state.absentAtVersion;
        throw new ApiError(404, 'not_found', absent
          ? `${ctx.method} ${ctx.path} does not exist at API version ${absent}`
          : `Unrecognized request URL (${ctx.method} ${ctx.path})`);
      }
    } catch (e) {
      const error = e instanceof ApiError ? e : toApiError(e, logger, requestId);
      ctx.status = error.status;
      for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
      if (error.status >= 500) ctx.set('x-should-retry', 'true');
      // As text, like every answer (runtime/pipeline/json-answer.ts says why).
      ctx.set('Content-Type', 'application/json; charset=utf-8');
      ctx.body = JSON.stringify(errorBody(error, requestId));
    } finally {
      // Closing: this response's socket ends with it (runtime/server.ts close()).
      if (stopping()) ctx.set('Connection', 'close');
      finishCorsResponse(ctx);
      metrics.observe(ctx, (performance.now() - started) / 1000);
      // Labelled together (below and in runtime/pipeline/run-operation.ts): a request with a path template has its operation.
      const { principal, operationId, operationPath } = ctx.state;
      // An in-process replay (runtime/replay.ts) is the platform's request, not the key's: not logged.
      if (apiLogs && principal && operationPath && operationId !== undefined && !replayOf(ctx)) {
        apiLogs.record({ principal, operation: operationId, method: ctx.method, path: templateOf(operationPath),
          status: ctx.status, durationMs: performance.now() - started, version: ctx.state.version ?? null, requestId,
          target: targetOf(ctx, operationId) });
      }
      if (logger.isLevelEnabled('info')) {
        logger.info({ request_id: requestId, method: ctx.method, path: loggedPath(ctx.path), status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
      }
    }
  };
  app.use(envelope);

  // Operational routes: no credentials, no version; each labels its requests in the metrics by its own name.
  const operational = new Map<string, { label: string; serve: (ctx: RequestContext) => unknown }>([
    [HEALTH_PATH, { label: 'health', serve: probes.health }],
    [READY_PATH, { label: 'ready', serve: probes.ready }],
    [METRICS_PATH, { label: 'metrics', serve: serveMetrics }],
  ]);
  app.use(async (ctx, next) => {
    const route = ctx.method === 'GET' || ctx.method === 'HEAD' ? operational.get(ctx.path) : undefined;
    if (!route) {
      if (!ctx.path.startsWith(DOCS_PATH)) return next();
      ctx.state.operationId = 'docs';
      if (await serveDocs(ctx)) return;
      delete ctx.state.operationId; // another route's, such as the v2 migration guide
      return next();
    }
    ctx.state.operationId = route.label;
    await route.serve(ctx);
  });

  // The Current API: routing, then the caller, its budget, its version and its clock, then the operation's route.
  const apiEntry: ApiMiddleware = async (ctx, next) => {
    if (!ctx.path.startsWith(basePath)) return next();
    if (ctx.path === openApi && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.state.operationId = 'openapi';
      return serveOpenApi(ctx);
    }
    // Routing before credentials: a path no operation has is a 404 and a method it does not answer a 405, whoever asks.
    const matched = routes.matchRequest(ctx);
    const methods = routes.methodsAt(matched);
    if (methods.length === 0) throw new ApiError(404, 'not_found', `Unrecognized request URL (${ctx.method} ${ctx.path})`);
    if (!methods.includes(ctx.method)) {
      const allow = [...methods, 'OPTIONS'].sort().join(', ');
      if (ctx.method === 'OPTIONS') {
        const origin = ctx.get('Origin');
        const corsMethods = origin ? clientRoutes.methodsAt(ctx.path) : [];
        if (corsMethods.length) answerPreflight(ctx, origin, corsMethods);
        ctx.set('Allow', allow);
        ctx.status = 204;
        return;
      }
      throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; it answers ${methods.join(', ')}`,
        undefined, { Allow: allow });
    }
    // Labelled before credentials are checked, so that refusals count under the operation asked for.
    ctx.state.operationId = routes.routeNameAt(matched, ctx.method);
    ctx.state.operationPath = routes.routePathAt(matched, ctx.method);
    const origin = ctx.get('Origin');
    if (origin && clientRoutes.routeNameAt(ctx.path, ctx.method) !== undefined) startCorsRequest(ctx, origin);
    prefetchJsonBody(ctx);
    const replay = replayOf(ctx);
    if (replay) {
      // Its caller and connection (in a read-only transaction) are given in-process: no credential, no budget.
      ctx.state.db = replay.db;
      ctx.state.principal = replay.principal;
      ctx.state.version = resolveVersion(ctx.get('Api-Version-Date') || undefined, replay.principal.versionPin);
      ctx.set('Api-Version-Date', ctx.state.version);
      return onCredentialClock(replay.db, replay.principal.clockId, next);
    }
    return withConnection(db, async (conn) => {
      ctx.state.db = conn;
      const caller = authenticate(conn, ctx.get('Authorization') || undefined, ctx.ip);
      const principal = caller instanceof Promise ? await caller : caller;
      ctx.state.principal = principal;
      checkCorsOrigin(ctx, principal);
      await options.rateLimits?.consume(ctx, principal);
      const version = resolveVersion(ctx.get('Api-Version-Date') || undefined, principal.versionPin);
      ctx.state.version = version;
      ctx.set('Api-Version-Date', version);
      await onCredentialClock(conn, principal.clockId, next);
    });
  };
  app.use(apiEntry);
  app.use(routes.middleware);
  for (const mount of mounts) app.use(mount({ db, operations, rateLimits: options.rateLimits }));
  serveReplaysWith(app);
  if (extraRoutes.length) {
    const extra = new Router<RequestState>();
    for (const route of extraRoutes) {
      // Labelled by the route's pattern: bounded, unlike the paths people request.
      const label = `${route.method} ${route.path}`;
      extra[ROUTER_METHOD[route.method]](route.path, (ctx) => {
        ctx.state.operationId = label;
        return route.handle(ctx, db);
      });
    }
    app.use(extra.routes());
  }
  return {
    koa: app,
    listener: apiLane({ basePath, steps: [envelope, apiEntry, routes.middleware], koa: app.callback(), logger }),
  };
}

function toApiError(e: unknown, logger: Logger, requestId: string): ApiError {
  // Errors raised by Koa itself for bad requests (e.g. a malformed URL) carry their status.
  const err = e as { status?: number; expose?: boolean; message?: string };
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return new ApiError(400, 'invalid_request', err.expose && err.message ? err.message : 'The request is malformed');
  }
  const refused = fromDatabaseError(e);
  if (refused) {
    // A client's answer, but a rule the code did not check first: logged so that it gets a check of its own.
    logger.warn({ err: e, request_id: requestId }, 'database constraint answered as a client error');
    return refused;
  }
  logger.error({ err: e, request_id: requestId }, 'unhandled error');
  return new ApiError(500, 'api_error', 'Something went wrong on our side; the request id identifies it for support');
}
