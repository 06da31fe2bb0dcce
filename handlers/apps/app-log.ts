// The build system's lines in an app's logs (GET /apps/{id}/logs, migrations/451_app_logs.ts): what each run over a
// build did, written with the run's own changes (or alone, for a run that failed), named by the run's job key.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';

export interface BuildLine { source: 'console' | 'exception'; level: 'info' | 'error'; message: string; stack?: string }

/** One line about `build`, from the run of `task` over it. */
export async function logBuildLine(db: Knex, build: { id: string; account_id: string; app_id: string }, task: string, line: BuildLine): Promise<void> {
  await db('app_logs').insert({
    id: newId('aplog_'), account_id: build.account_id, app_id: build.app_id, app_build_id: build.id, source: line.source,
    level: line.level, message: line.message, stack: line.stack ?? null, request_id: `${task}:${build.id}`,
    created_at: db.raw("date_trunc('milliseconds', clock_timestamp())"),
  });
}
