// Background jobs on graphile-worker, added with SQL inside the request's own transaction.
import type { Knex } from 'knex';

export interface JobOptions {
  /** at most one pending job per key: a second add replaces the first */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export async function addJob(db: Knex, task: string, payload: unknown, options: JobOptions = {}): Promise<void> {
  await db.raw(
    `select graphile_worker.add_job(?, ?::json, run_at => ?::timestamptz, max_attempts => ?, job_key => ?, job_key_mode => 'preserve_run_at')`,
    [task, JSON.stringify(payload ?? {}), options.runAt?.toISOString() ?? null, options.maxAttempts ?? 25, options.jobKey ?? null],
  );
}
