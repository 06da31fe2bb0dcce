// The safety net under handlers' own rules: a database constraint a request still breaks answers a 4xx envelope
// naming the constraint (409 conflict, or 400 for a value the column cannot hold), never a 500, and the request's
// writes roll back. An operation mounted by the real runtime breaks real constraints of the real schema.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { newId } from '../../runtime/ids.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { specData } from '../../generated/spec-data.js';
import type { OperationDefinition } from '../../runtime/operation.js';
import { echoOperation } from './echo-operation.js';
import { assertError, assertNoLeak, send } from './envelope.js';

const t = suite('runtime: database constraints answer 4xx');
let app: TestApp;
let server: RunningServer;
let o: Awaited<ReturnType<typeof makeOwner>>;

/** What each `what` does in the request's transaction: a statement the schema refuses, after a write of its own. */
const BREAKS: Record<string, (db: Knex, accountId: string) => Promise<unknown>> = {
  duplicate: async (db) => {
    const username = `dup${newId('').slice(-8).toLowerCase()}`;
    await db('users').insert({ id: newId('user_'), username, email: `${username}@example.com` }); // sql-state-write: runtime test of constraint errors: must break the unique index the product guards
    await db('users').insert({ id: newId('user_'), username, email: `${username}.2@example.com` }); // sql-state-write: runtime test of constraint errors: must break the unique index the product guards
  },
  missing_parent: (db) => db('webhooks').insert({ id: newId('hook_'), account_id: 'biz_nobody', url: 'https://example.com', events: [], secret: 'whsec_x' }), // sql-state-write: runtime test of constraint errors: a row whose parent does not exist, which the product never writes
  referenced_parent: (db, accountId) => db('accounts').where({ id: accountId }).delete(), // sql-state-write: runtime test of constraint errors: deleting a referenced parent, which the product never does
  out_of_range: (db) => db.raw('select 2147483648::int'),
  bug: async () => { throw new Error('not a database error'); },
};

function breakingOperation(): OperationDefinition {
  const echo = echoOperation();
  return {
    ...echo,
    id: 'breakConstraint',
    method: 'POST',
    path: '/test_constraint/:id',
    status: 201,
    handler: async ({ path }: { path: { id: string } }, ctx: { db: Knex }) => {
      await ctx.db('accounts').where({ id: o.accountId }).update({ title: 'Changed then rolled back' }); // sql-state-write: runtime test: a write in a test-only route's transaction that must roll back with the failure
      await BREAKS[path.id]!(ctx.db, o.accountId);
      return { ok: true };
    },
  } as unknown as OperationDefinition;
}

t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Unchanged' });
  server = await startServer({ db: app.db, databaseUrl: '', operations: [breakingOperation()], tasks: {}, port: 0, worker: false });
});
t.after(async () => {
  await server.close();
  await app.close();
});

const breakOne = (what: string) => send(`${server.url}${specData.basePath}/test_constraint/${what}`, {
  method: 'POST', headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' }, body: '{}' });

t('a unique key broken: 409 conflict naming the constraint and its column', async () => {
  const res = await breakOne('duplicate');
  assertError(res, 409, 'conflict', 'username');
  assert.match(res.body.error.message, 'users_username_unique');
  assertNoLeak(res);
});

t('a row referring to a parent that does not exist: 409 conflict', async () => {
  const res = await breakOne('missing_parent');
  assertError(res, 409, 'conflict', 'account_id');
  assert.match(res.body.error.message, 'does not exist');
});

t('a parent removed while children refer to it: 409 conflict naming what still refers to it', async () => {
  const res = await breakOne('referenced_parent');
  assertError(res, 409, 'conflict', null);
  assert.match(res.body.error.message, /still referenced by \w+ records/);
});

t('a value the column cannot hold: 400 invalid_request', async () => {
  assertError(await breakOne('out_of_range'), 400, 'invalid_request');
});

t('anything else is still a 500, and every refusal rolled the request\'s writes back', async () => {
  assertError(await breakOne('bug'), 500, 'api_error', null);
  assert.is((await app.db('accounts').where({ id: o.accountId }).first('title')).title, 'Unchanged');
});

t.run();
