// Background jobs on graphile-worker, added with SQL inside the request's own transaction.
import type { Knex } from 'knex';

export interface JobOptions {
  /** at most one pending job per key */
  jobKey?: string;
  /** what a second add with the same key does: replace the pending job (the default), keep its run time, or
   * do nothing while one is pending (graphile-worker's job_key_mode) */
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
}

export async function addJob(db: Knex, task: string, payload: unknown, options: JobOptions = {}): Promise<void> {
  await db.raw(
    `select graphile_worker.add_job(?, ?::json, run_at => ?::timestamptz, max_attempts => ?, job_key => ?, job_key_mode => ?)`,
    [task, JSON.stringify(payload ?? {}), options.runAt?.toISOString() ?? null, options.maxAttempts ?? 25, options.jobKey ?? null,
      options.jobKeyMode ?? 'replace'],
  );
}
