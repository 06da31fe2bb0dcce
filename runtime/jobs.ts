// Background jobs on graphile-worker, added with SQL inside the request's own transaction.
import type { Knex } from 'knex';
import { query } from './request-db.js';

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
  // Fixed SQL on plain pg (runtime/request-db.ts query): many writes add a job.
  await query(db,
    `select graphile_worker.add_job($1, $2::json, run_at => $3::timestamptz, max_attempts => $4, job_key => $5, job_key_mode => $6)`,
    [task, JSON.stringify(payload ?? {}), options.runAt?.toISOString() ?? null, options.maxAttempts ?? 25, options.jobKey ?? null,
      options.jobKeyMode ?? 'replace'],
  );
}
