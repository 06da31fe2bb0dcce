import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { GENERATE_EXPORT, generateExport } from './generate.js';
import { EXPIRE_EXPORTS, expireExports } from './expire.js';

export function exportTasks(db: Knex): Record<string, Task> {
  return {
    [GENERATE_EXPORT]: async (payload) => generateExport(db, (payload as { export_id: string }).export_id),
    [EXPIRE_EXPORTS]: async () => { await expireExports(db); },
  };
}
