import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { insertUser } from '../../handlers/users/user-service.js';

const t = suite('GET /users (search)');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
let token: string;
t.before(async () => {
  app = await startTestApp();
  token = (await makeUser(app.db, 'searcher')).token;
});
t.after(async () => { await app.close(); });

const person = (db: Knex, username: string, name: string | null) =>
  insertUser(db, { username, email: `${username}@example.com`, name });

const usernames = (body: any) => body.data.map((u: any) => u.username);

t('matches a username or name prefix, case-insensitively, ordered by username', async () => {
  await person(app.db, 'zed_martin', 'Zed Martin');
  await person(app.db, 'martha', 'Martha Jones');
  await person(app.db, 'jones', 'MARTIN Jones');
  await person(app.db, 'omartin', 'Olly');
  const res = await call('GET', '/users', { token, query: { query: 'MaRt' } });
  assert.is(res.status, 200);
  // omartin: "mart" is inside, not a prefix; zed_martin's name starts with Zed.
  assert.equal(usernames(res.body), ['jones', 'martha']);
  assert.is(res.body.data[0].email, null);
  assert.is(res.body.page_info.has_next_page, false);
});

t('% and _ match literally', async () => {
  await person(app.db, 'pct_a', '100% real');
  await person(app.db, 'pctxa', '100 real');
  await person(app.db, 'under_score', 'U');
  await person(app.db, 'underxscore', 'U2');
  const pct = await call('GET', '/users', { token, query: { query: '100%' } });
  assert.equal(usernames(pct.body), ['pct_a']);
  const under = await call('GET', '/users', { token, query: { query: 'under_' } });
  assert.equal(usernames(under.body), ['under_score']);
  const all = await call('GET', '/users', { token, query: { query: '%' } });
  assert.equal(usernames(all.body), []);
  const backslash = await call('GET', '/users', { token, query: { query: 'pct\\' } });
  assert.equal(usernames(backslash.body), []);
});

t('pages with cursors: default 10, first up to 50, after and before', async () => {
  for (let i = 0; i < 23; i++) await person(app.db, `pager_${String(i).padStart(2, '0')}`, null);
  const page1 = await call('GET', '/users', { token, query: { query: 'pager_' } });
  assert.is(page1.status, 200);
  assert.is(page1.body.data.length, 10);
  assert.is(page1.body.data[0].username, 'pager_00');
  assert.is(page1.body.page_info.has_next_page, true);
  assert.is(page1.body.page_info.has_previous_page, false);

  const page2 = await call('GET', '/users', { token, query: { query: 'pager_', first: 10, after: page1.body.page_info.end_cursor } });
  assert.is(page2.body.data[0].username, 'pager_10');
  const page3 = await call('GET', '/users', { token, query: { query: 'pager_', first: 10, after: page2.body.page_info.end_cursor } });
  assert.equal(usernames(page3.body), ['pager_20', 'pager_21', 'pager_22']);
  assert.is(page3.body.page_info.has_next_page, false);
  assert.is(page3.body.page_info.has_previous_page, true);

  const back = await call('GET', '/users', { token, query: { query: 'pager_', last: 5, before: page3.body.page_info.start_cursor } });
  assert.equal(usernames(back.body), ['pager_15', 'pager_16', 'pager_17', 'pager_18', 'pager_19']);

  const big = await call('GET', '/users', { token, query: { query: 'pager_', first: 50 } });
  assert.is(big.body.data.length, 23);
});

t('first above 50, a missing query or a bad cursor is 400 naming the parameter', async () => {
  for (const [query, param] of [
    [{ query: 'a', first: 51 }, 'first'],
    [{ query: 'a', first: 0 }, 'first'],
    [{}, 'query'],
    [{ query: 'a', after: 'garbage' }, 'after'],
    [{ query: 'a', order: 'name' }, 'order'],
  ] as const) {
    const res = await call('GET', '/users', { token, query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, param);
  }
});

t('API keys may search; one without user:read is 403; no credentials 401', async () => {
  const o = await makeOwner(app.db);
  const ok = await call('GET', '/users', { token: o.key, query: { query: 'searcher' } });
  assert.is(ok.status, 200);
  assert.equal(usernames(ok.body), ['searcher']);
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['stats:read'] }] });
  const denied = await call('GET', '/users', { token: narrow.secret, query: { query: 'searcher' } });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const anon = await call('GET', '/users', { query: { query: 'searcher' } });
  assert.is(anon.status, 401);
});

t.run();
