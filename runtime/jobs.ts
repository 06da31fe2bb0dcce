// Background jobs on graphile-worker, added with SQL inside the request's own transaction.
import type { Knex } from 'knex';
import { writeAtCommit } from './request-db.js';

export interface JobOptions {
  /** at most one pending job per key */
  jobKey?: string;
  /** what a second add with the same key does: replace the pending job (the default), keep its run time, or
   * do nothing while one is pending (graphile-worker's job_key_mode) */
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
}

/** graphile-worker's add_job as an SQL expression whose six parameters start at $first, so a write can queue its job
 * in its own statement (one round trip fewer); `jobParams` gives the values. */
export const addJobExpression = (first: number): string =>
  `graphile_worker.add_job($${first}, $${first + 1}::json, run_at => $${first + 2}::timestamptz, max_attempts => $${first + 3}, ` +
  `job_key => $${first + 4}, job_key_mode => $${first + 5})`;

export const jobParams = (task: string, payload: unknown, options: JobOptions = {}): unknown[] =>
  [task, JSON.stringify(payload ?? {}), options.runAt?.toISOString() ?? null, options.maxAttempts ?? 25, options.jobKey ?? null,
    options.jobKeyMode ?? 'replace'];

const ADD_JOB = `select ${addJobExpression(1)}`;

export async function addJob(db: Knex, task: string, payload: unknown, options: JobOptions = {}): Promise<void> {
  // Many writes add a job; in a request's transaction it travels with the COMMIT (runtime/request-db.ts).
  await writeAtCommit(db, ADD_JOB, jobParams(task, payload, options));
}
