// The runtime's own migrations: the tables it reads and writes whatever the API serves. runtime/migrate.ts runs them
// before an API's own (which may then refer to them), recorded under these names beside the API's.
import type { Knex } from 'knex';
import * as baseTables from './001_base_tables.js';
import * as addJobs from './002_add_jobs.js';

export const runtimeMigrations: ReadonlyMap<string, Knex.Migration> = new Map([
  ['runtime/001_base_tables', baseTables],
  ['runtime/002_add_jobs', addJobs],
]);
