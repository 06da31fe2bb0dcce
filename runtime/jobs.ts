// Background jobs on graphile-worker, added with SQL inside the request's own transaction. On a clock
// (runtime/clock.ts), a job not due yet by the clock's time waits for the clock instead (public.app_add_job,
// migrations/525_clocks.ts).
import type { Knex } from 'knex';
import { jobAtCommit, query } from './request-db.js';

export interface JobOptions {
  /** at most one pending job per key */
  jobKey?: string;
  /** what a second add with the same key does: replace the pending job (the default), keep its run time, or
   * do nothing while one is pending (graphile-worker's job_key_mode) */
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
  /** at the wall's time even on a clock (runtime/clock.ts): work for the world outside, such as sending a webhook */
  realTime?: boolean;
  /** a graphile-worker queue: its jobs run one at a time, in run_at order (other queues' and unqueued jobs run
   * beside them); addJob only */
  queueName?: string;
}

/** graphile-worker's add_job as an SQL expression whose seven parameters start at $first (public.app_add_job), for a
 * statement that adds its own job outside a request's transaction, or many at once; `jobParams` gives the values. */
export const addJobExpression = (first: number): string =>
  `public.app_add_job($${first}, $${first + 1}::json, $${first + 2}::timestamptz, $${first + 3}, $${first + 4}, $${first + 5}, ` +
  `$${first + 6}::boolean)`;

export const jobParams = (task: string, payload: unknown, options: JobOptions = {}): unknown[] =>
  [task, JSON.stringify(payload ?? {}), options.runAt?.toISOString() ?? null, options.maxAttempts ?? 25, options.jobKey ?? null,
    options.jobKeyMode ?? 'replace', options.realTime ?? false];

const ADD_JOB = `select ${addJobExpression(1)}`;
const ADD_JOB_IN_QUEUE = `select ${addJobExpression(1).replace(/\)$/, ', $8::text)')}`;

/** A job as public.app_add_jobs takes it (one element of its json array). */
export const jobRow = (task: string, payload: unknown, options: JobOptions = {}): object => ({
  task, payload: payload ?? {}, run_at: options.runAt?.toISOString() ?? null, max_attempts: options.maxAttempts ?? 25,
  job_key: options.jobKey ?? null, job_key_mode: options.jobKeyMode ?? 'replace', real_time: options.realTime ?? false,
  queue_name: options.queueName ?? null,
});

/** Queues a job with the COMMIT of the request's transaction, with the request's other jobs in one call
 * (runtime/request-db.ts jobAtCommit; public.app_add_jobs). False outside one: the caller adds it itself. */
export function addJobAtCommit(db: Knex, task: string, payload: unknown, options: JobOptions = {}): boolean {
  return jobAtCommit(db, jobRow(task, payload, options));
}

/** Queues a job: with the COMMIT in a request's transaction (addJobAtCommit), anywhere else at once. */
export async function addJob(db: Knex, task: string, payload: unknown, options: JobOptions = {}): Promise<void> {
  if (addJobAtCommit(db, task, payload, options)) return;
  if (options.queueName) await query(db, ADD_JOB_IN_QUEUE, [...jobParams(task, payload, options), options.queueName]);
  else await query(db, ADD_JOB, jobParams(task, payload, options));
}
