// Api logs record the path template the caller used: an operation that moved (served at /social_accounts before
// 2026-08-28, /external_accounts since) and its deprecated alias each log the path that was requested, also for a
// request refused before the operation ran.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';

const t = suite('api logs: the path the caller used');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('moved operations and aliases log each path as called, at every version', async () => {
  const o = await makeOwner(app.db);
  const external = await connectedAccount(app, o.key, o.accountId);
  const calls: [string, string, string][] = [
    // [version, path requested, the template it is logged as]
    [headVersion(), '/external_accounts', '/external_accounts'],
    [headVersion(), '/social_accounts', '/social_accounts'],
    ['2026-07-20', '/social_accounts', '/social_accounts'],
    [headVersion(), `/external_accounts/${external.id}`, '/external_accounts/{id}'],
    [headVersion(), `/social_accounts/${external.id}`, '/social_accounts/{id}'],
    ['2026-07-20', `/social_accounts/${external.id}`, '/social_accounts/{id}'],
    // refused before the operation runs (an ill-formed version): still the path requested
    ['not-a-date', '/external_accounts', '/external_accounts'],
  ];
  const requestIds: string[] = [];
  for (const [version, path] of calls) {
    const res = await app.request('GET', path, { token: o.key, version, query: path.includes('/', 1) ? {} : { account_id: o.accountId } });
    assert.is(res.status, version === 'not-a-date' ? 400 : 200, `${path}: ${JSON.stringify(res.body)}`);
    requestIds.push(res.headers.get('request-id')!);
  }
  await app.server.apiLogs!.flush();
  const listed = await app.request('GET', '/api_logs', { token: o.key, query: { account_id: o.accountId, first: 100 } });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  const byRequest = new Map(listed.body.data.map((l: { request_id: string; path: string }) => [l.request_id, l.path]));
  assert.equal(requestIds.map((id) => byRequest.get(id)), calls.map(([, , logged]) => logged));
});

t.run();
