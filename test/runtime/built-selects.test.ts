// Lists built with the query builder run on the request's connection without knex's runner (runtime/request-db.ts
// selectBuilt), unnamed: planned for their values each time, never by a generic plan, with the rows knex returns.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { query, selectBuilt, withConnection } from '../../runtime/request-db.js';
import { selectRows } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

const t = suite('runtime: built selects on the request connection');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db);
});
t.after(async () => { await app.close(); });

t('a built select on the request connection answers what knex answers, and leaves no prepared statement', async () => {
  await withConnection(app.db, async (conn) => {
    const build = () => selectRows(conn, resources.Account).where('accounts.id', o.accountId).limit(5);
    const viaKnex = await build();
    const first = await selectBuilt<Record<string, unknown>>(build());
    const again = await selectBuilt<Record<string, unknown>>(build());
    assert.equal(first, viaKnex);
    assert.equal(again, viaKnex);
    const text = build().toSQL().toNative().sql;
    const prepared = await query<{ name: string }>(conn, 'select name from pg_prepared_statements where statement = $1', [text]);
    assert.is(prepared.length, 0, 'planned for its values, not kept as a generic plan');
  });
});

t('outside a request connection (a knex transaction) the builder runs through knex', async () => {
  const rows = await app.db.transaction((trx) => selectBuilt<{ id: string }>(trx('accounts').select('id').where({ id: o.accountId })));
  assert.equal(rows.map((r) => r.id), [o.accountId]);
});

t.run();
