// `npm start`'s check that a database needs nothing applied (runtime/database-current.ts): true only when every
// migration of this code, graphile-worker's newest revision, its add_jobs setting and an account are all there;
// anything missing or unknown sends the start down the full path (migrate, seed).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { databaseState } from '../../runtime/database-current.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';

const t = suite('runtime: a database current for npm start');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const ADD_JOBS = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)';

t('an empty database is not current (its tables are missing), nor one that cannot be reached', async () => {
  const name = `empty_${randomToken(8).toLowerCase()}`;
  const url = await ensureDatabase(process.env.TEST_ADMIN_URL!, name);
  try {
    const state = await databaseState(url);
    assert.is(state.current, false);
    const { rows: [shown] } = await app.db.raw('show autovacuum');
    assert.is(state.autovacuum, shown.autovacuum === 'on', 'a new database still reports whether the server runs autovacuum');
  } finally {
    await dropDatabase(process.env.TEST_ADMIN_URL!, name);
  }
  assert.is((await databaseState(url)).current, false, 'the database is gone');
});

t('a migrated database is current once it holds an account (the demo seed runs on one without)', async () => {
  assert.is((await databaseState(app.databaseUrl)).current, false, 'no account yet');
  await makeOwner(app.db);
  assert.is((await databaseState(app.databaseUrl)).current, true);
});

t('the state says whether the server runs autovacuum, as the server itself does; unknown when unreachable', async () => {
  const { rows: [shown] } = await app.db.raw('show autovacuum');
  assert.is((await databaseState(app.databaseUrl)).autovacuum, shown.autovacuum === 'on');
  assert.is((await databaseState(app.databaseUrl.replace(/\/[^/?]+(\?|$)/, '/no_such_database_here$1'))).autovacuum, null);
});

t('a migration missing or unknown, an older graphile-worker schema or add_jobs without its setting: not current', async () => {
  const cases: [string, string, string][] = [
    ['a migration of this code not applied',
      `delete from knex_migrations where id = (select max(id) from knex_migrations) returning name, batch, migration_time`, ''],
    ['a migration the database has and this code lacks',
      `insert into knex_migrations (name, batch, migration_time) values ('999_from_newer_code.ts', 999, now())`,
      `delete from knex_migrations where name = '999_from_newer_code.ts'`],
    ['graphile-worker at an older revision', `update graphile_worker.migrations set id = -id where id = (select max(id) from graphile_worker.migrations)`,
      `update graphile_worker.migrations set id = -id where id < 0`],
    ['add_jobs planned once per connection', `alter function ${ADD_JOBS} reset plan_cache_mode`,
      `alter function ${ADD_JOBS} set plan_cache_mode = force_custom_plan`],
  ];
  for (const [what, change, undo] of cases) {
    const { rows } = await app.db.raw(change);
    try {
      assert.is((await databaseState(app.databaseUrl)).current, false, what);
    } finally {
      if (undo) await app.db.raw(undo);
      else await app.db('knex_migrations').insert(rows[0]);
    }
    assert.is((await databaseState(app.databaseUrl)).current, true, `${what}: current again once undone`);
  }
});

t.run();
