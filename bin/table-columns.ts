// `npm run tables` (this project, then examples/library; `tsx bin/table-columns.ts --root DIR` for one project):
// migrate a scratch database with the project's migrations/ and write what PostgreSQL then holds, table by table and
// column by column (views too), to its migrations/tables.json. The generator types rows from that file
// (generated/rows.ts), so `npm run generate` needs no database; test/generator/table-columns.test.ts fails when a
// migration changed the tables and the file was not written again.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import { createKnex, openServer, withDatabase } from '../runtime/db.js';
import { dropDatabase, ensureDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { projectRoot } from '../runtime/project-root.js';
import type { TableColumns } from '../generator/emit-rows.js';

export type { TableColumns };

/** Tables the migration tool keeps for itself, not the project's. */
const TOOL_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

export const tablesFile = (root: string): string => join(root, 'migrations', 'tables.json');

/** The public schema's tables (and views: api_logs is one) as they are in `db`, in a stable order (tables by name,
 * columns as the migrations made them). */
export async function tableColumns(db: Knex): Promise<TableColumns> {
  const { rows } = await db.raw<{ rows: { table: string; column: string; type: string; nullable: boolean; view: boolean }[] }>(`
    select c.table_name as table, c.column_name as column, t.table_type = 'VIEW' as view,
      case when c.data_type = 'ARRAY' then substr(c.udt_name, 2) || '[]' else c.udt_name end as type,
      c.is_nullable = 'YES' as nullable
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type in ('BASE TABLE', 'VIEW')
    order by c.table_name, c.ordinal_position`);
  const out: TableColumns = { views: [], tables: {} };
  for (const r of rows) {
    if (TOOL_TABLES.has(r.table)) continue;
    if (r.view && !out.views.includes(r.table)) out.views.push(r.table);
    (out.tables[r.table] ??= {})[r.column] = `${r.type}${r.nullable ? '?' : ''}`;
  }
  return out;
}

/** A fresh database migrated with the project's migrations: its tables. On `adminUrl`'s server (the tests'), else
 * on DATABASE_URL's or an embedded one. */
export async function migratedTables(root: string, adminUrl?: string): Promise<TableColumns> {
  const server = adminUrl ? { url: adminUrl, stop: async () => {} }
    : await openServer(join(projectRoot, '.data', `pg-tables-${process.pid}`), { persistent: false, durable: false });
  if (!adminUrl) adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
  const name = `tables_${randomToken(8).toLowerCase()}`;
  const url = await ensureDatabase(adminUrl, name);
  const db = createKnex(url, 2);
  try {
    await migrate(db, url, join(root, 'migrations'));
    return await tableColumns(db);
  } finally {
    await db.destroy();
    await dropDatabase(adminUrl, name);
    await server.stop();
  }
}

export const tablesText = (tables: TableColumns): string => `${JSON.stringify(tables, null, 1)}\n`;

async function main(): Promise<void> {
  const at = process.argv.indexOf('--root');
  const root = at === -1 ? projectRoot : resolve(process.argv[at + 1]);
  writeFileSync(tablesFile(root), tablesText(await migratedTables(root)));
  console.log(`wrote ${tablesFile(root)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
