// GET /metrics in the Prometheus text format (prom-client). Each process counts its own requests in its own registry;
// what the database knows (background jobs, webhook deliveries) is read once per scrape by the process that answers
// it. Under `npm start` with several API processes, the answering process asks the primary for the sum over every
// API process (bin/cluster-metrics.ts), so a scrape that lands on any of them sees the whole server.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { ApiContext } from './request-state.js';
import type { Knex } from 'knex';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './request-counters.js';
import { unauthenticated } from './errors.js';

export const METRICS_PATH = '/metrics';

/** The label of a request that no operation or route answered: never its raw path, which callers choose. */
export const UNKNOWN_OPERATION = 'unknown';

export interface MetricsOptions {
  /** when set, GET /metrics needs `Authorization: Bearer <token>` (METRICS_TOKEN) */
  token?: string | null;
  /** the request metrics of every process serving this port, as Prometheus text; default this process's own */
  gather?: (local: Registry) => Promise<string>;
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
const JOB_STATES = ['queued', 'scheduled', 'running', 'failed'] as const;
const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;

/** The counters every request moves; one set per app, so that several apps in one process (tests) do not collide. */
export function requestMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new LabelledCounter('http_requests_total',
    'Requests answered, by operation id (or route), resolved API version and status class.', registry);
  const duration = new LabelledHistogram('http_request_duration_seconds',
    'Time from receiving a request to its response being ready, by operation id (or route).', registry,
    [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  const replays = new LabelledCounter('http_idempotent_replays_total',
    'Responses replayed for a repeated Idempotency-Key (Idempotent-Replayed: true), by operation id.', registry);
  const rateLimited = new LabelledCounter('http_rate_limited_total',
    'Requests refused with 429 rate_limited, by budget (read or write).', registry);

  // Each label set's cell, found once. Bounded by the operations, versions and status classes there are.
  const counted = new Map<string, { value: number }>();
  const timed = new Map<string, { observe(seconds: number): void }>();
  const replayed = new Map<string, { value: number }>();
  const refused = new Map<string, { value: number }>();
  // Made once, not per request: a cell's labels are built only when its key is first seen.
  const timerOf = (operation: string) => duration.cell(operation, { operation });
  const replayCountOf = (operation: string) => replays.cell(operation, { operation });
  const refusalCountOf = (budget: string) => rateLimited.cell(budget, { budget });
  return {
    registry,
    /** Called once per request when its response is ready; labels come from what the request reached. */
    observe(ctx: ApiContext, seconds: number): void {
      const operation = ctx.state.operationId ?? UNKNOWN_OPERATION;
      const statusClass = STATUS_CLASSES[Math.floor(ctx.status / 100) - 1] ?? 'other';
      const version = ctx.state.version ?? 'none';
      const key = `${operation} ${version} ${statusClass}`;
      let counter = counted.get(key);
      if (!counter) counted.set(key, (counter = requests.cell(key, { operation, version, status_class: statusClass })));
      counter.value++;
      cellIn(timed, operation, timerOf).observe(seconds);
      if (ctx.state.idempotentReplay) cellIn(replayed, operation, replayCountOf).value++;
      const budget = ctx.state.rateLimitedBudget;
      if (budget) cellIn(refused, budget, refusalCountOf).value++;
    },
  };
}

export type RequestMetrics = ReturnType<typeof requestMetrics>;

function cellIn<T>(cells: Map<string, T>, key: string, create: (key: string) => T): T {
  let cell = cells.get(key);
  if (!cell) cells.set(key, (cell = create(key)));
  return cell;
}

/** Gauges read from the database at scrape time: the same in every process, so read once, by the answering one. */
function databaseMetrics(db: Knex) {
  const registry = new Registry();
  const jobs = new Gauge({
    name: 'background_jobs',
    help: 'graphile-worker jobs by state: queued (due, waiting for a worker), scheduled (due later, retries included), '
      + 'running (locked by a worker) and failed (out of attempts, kept for inspection).',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'background_jobs_oldest_queued_age_seconds',
    help: 'How long the oldest due job has waited for a worker (0 when none waits).',
    registers: [registry],
  });
  const deliveries = new Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries by status: pending (waiting or retrying), sending, succeeded, failed (gave up after the last retry).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  return {
    registry,
    async refresh(): Promise<void> {
      const { rows: [j] } = await db.raw(`select
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as queued,
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
          count(*) filter (where locked_at is not null)::int as running,
          count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed,
          coalesce(extract(epoch from now() - min(run_at)
            filter (where locked_at is null and attempts < max_attempts and run_at <= now())), 0)::float8 as oldest
        from graphile_worker.jobs`);
      for (const state of JOB_STATES) jobs.set({ state }, j[state]);
      oldest.set(j.oldest);
      const { rows } = await db.raw('select status, count(*)::int as n from webhook_deliveries group by status');
      const byStatus = new Map<string, number>(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
      for (const status of DELIVERY_STATUSES) deliveries.set({ status }, byStatus.get(status) ?? 0);
    },
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compares digests, so the comparison takes the same time whatever the token sent. */
function tokenMatches(header: string, token: string): boolean {
  const sent = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

export function metricsEndpoint(db: Knex, local: RequestMetrics, options: MetricsOptions = {}) {
  const fromDatabase = databaseMetrics(db);
  const gather = options.gather ?? ((registry: Registry) => registry.metrics());
  return async (ctx: Context): Promise<void> => {
    if (options.token && !tokenMatches(ctx.get('Authorization'), options.token)) {
      throw unauthenticated('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    const processes = await gather(local.registry);
    await fromDatabase.refresh();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = local.registry.contentType;
    ctx.body = `${processes.trimEnd()}\n\n${await fromDatabase.registry.metrics()}`;
  };
}
