// The runtime's own tables (runtime/migrations/): run before another API's migrations (examples/library's tests run
// them), never before this project's, whose numbered steps made those tables; and a no-op on a database that has them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { runtimeMigrations } from '../../runtime/migrations/index.js';

const t = suite('runtime: its own migrations');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** Every column of the public schema, and the job function's definition: what the set could change. */
async function schema(db: Knex): Promise<string> {
  const { rows: columns } = await db.raw(`select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema = 'public' order by table_name, column_name`);
  const { rows: [job] } = await db.raw(`select pg_get_functiondef(
    to_regprocedure('public.app_add_job(text, json, timestamptz, integer, text, text, boolean)')) as def`);
  return JSON.stringify({ columns, job: job.def });
}

t('this project\'s database records none of them (its own migrations made those tables)', async () => {
  const recorded = await app.db('knex_migrations').whereIn('name', [...runtimeMigrations.keys()]).count<{ count: string }[]>('* as count');
  assert.is(Number(recorded[0].count), 0);
});

t('on a database that has the tables (this project\'s), they change nothing', async () => {
  const before = await schema(app.db);
  const rolledBack = new Error('rolled back');
  await app.db.transaction(async (trx) => {
    for (const migration of runtimeMigrations.values()) await migration.up(trx);
    assert.is(await schema(trx), before);
    throw rolledBack;
  }).catch((e) => { if (e !== rolledBack) throw e; });
});

t.run();
