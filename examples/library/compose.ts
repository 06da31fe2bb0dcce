// The library API's composition root: the same runtime as the commerce API, handed this API's definition, its
// operations and its tasks. Nothing here imports commerce code (handlers/, sandbox/, wiring/).
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { installApi } from '../../runtime/api-definition.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { apiDefinition } from './generated/api-definition.js';
import { operations } from './generated/routes.js';
import { webhookTasks } from './handlers/webhooks/deliver.js';
import { loanTasks, MARK_OVERDUE_LOANS } from './handlers/loans/mark-overdue.js';

/** The library's knex migrations (runtime/migrate.ts runs them: `migrate(db, url, LIBRARY_MIGRATIONS)`). */
export const LIBRARY_MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export function composeLibrary(): void {
  installApi(apiDefinition);
}

export interface LibraryServerOptions {
  db: Knex;
  databaseUrl: string;
  port?: number;
}

/** Serves the library API (and runs its worker) on a migrated database. */
export function startLibraryServer(options: LibraryServerOptions): Promise<RunningServer> {
  composeLibrary();
  return startServer({
    db: options.db, databaseUrl: options.databaseUrl, port: options.port ?? 0,
    operations, tasks: { ...webhookTasks(options.db), ...loanTasks(options.db) },
    schedule: { crontab: [`0 * * * * ${MARK_OVERDUE_LOANS}`], onStart: [MARK_OVERDUE_LOANS] },
    // This API keeps no request logs (the commerce API's api_log_batches table is not part of it).
    apiLogs: false,
  });
}
