// GET /health and GET /ready, without credentials, for load balancers and orchestrators. /health says the process
// answers; /ready says it can do its work: the database answers, it carries this code's migrations, some worker
// (in this process or another) has beaten recently, and this server is not shutting down. A process that is
// draining answers 503 on /ready so that a balancer stops sending it new requests while it finishes the old ones.
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { pendingMigrations } from './migration-source.js';
import { answerJson } from './pipeline/json-answer.js';

export type CheckResult = 'ok' | string;

export interface ReadinessOptions {
  db: Knex;
  /** whether this server has begun shutting down (runtime/server.ts close()) */
  stopping(): boolean;
  /** a probe slower than this counts as failed: a balancer's own timeout is usually a few seconds */
  timeoutMs?: number;
}

export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';

/** A check that neither hangs nor throws: its failure is its message. */
async function check(timeoutMs: number, run: () => Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([run().catch((e: Error) => e.message || String(e)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function readinessProbes({ db, stopping, timeoutMs = 2000 }: ReadinessOptions) {
  // Migrations only ever get applied, never removed, while a server runs: once current, they stay current.
  let migrationsCurrent = false;
  const checks = {
    database: async (): Promise<CheckResult> => {
      await db.raw('select 1');
      return 'ok';
    },
    migrations: async (): Promise<CheckResult> => {
      if (migrationsCurrent) return 'ok';
      const pending = await pendingMigrations(db);
      if (pending.length) return `${pending.length} migration${pending.length === 1 ? '' : 's'} not applied: ${pending.join(', ')}`;
      migrationsCurrent = true;
      return 'ok';
    },
    // A live heartbeat is a worker's promise to be alive until expires_at (runtime/worker-liveness.ts).
    worker: async (): Promise<CheckResult> => {
      const { rows } = await db.raw('select count(*)::int as live from worker_heartbeats where expires_at > now()');
      return rows[0].live > 0 ? 'ok' : 'no worker has beaten recently: background jobs are not being run';
    },
  };

  return {
    health(ctx: Context): void {
      ctx.set('Cache-Control', 'no-store');
      // As text (runtime/pipeline/json-answer.ts): a process's first probe then does not load Node's fetch.
      answerJson(ctx, { status: 'ok' });
    },
    async ready(ctx: Context): Promise<void> {
      ctx.set('Cache-Control', 'no-store');
      const results: Record<string, CheckResult> = { shutdown: stopping() ? 'shutting down: finishing in-flight requests' : 'ok' };
      // One after another: a probe must not take several pool connections at once from the requests it reports on.
      for (const [name, run] of Object.entries(checks)) results[name] = await check(timeoutMs, run);
      const ready = Object.values(results).every((r) => r === 'ok');
      ctx.status = ready ? 200 : 503;
      answerJson(ctx, { status: ready ? 'ready' : 'not_ready', checks: results });
    },
  };
}
