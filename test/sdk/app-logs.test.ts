// apps.logs through the official client at its default pin: an app's failed request, made with the app's own key,
// read back as the client's AppLogsResponse ({ data, page_info }) with its filters.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { makeApp, VERSION } from '../apps/app-fixtures.js';
import { rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: app logs');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('apps.logs lists the app\'s failed requests newest first, filtered by query and level', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const key = await app.request('POST', '/api_keys', { token: o.token, version: VERSION,
    body: { account_id: o.accountId, app_id: a.id, name: 'server', statements: [{ effect: 'allow', actions: ['developer:*'] }] } });
  const client = sdk(app, key.body.secret);
  await rejects(client.apps.retrieve('app_doesnotexist00000'), NotFoundError, 404);
  await app.server.apiLogs!.flush();
  const page = await sdk(app, o.key).apps.logs(a.id, { query: 'answered 404', first: 10 });
  assert.is(page.data.length, 1);
  const [line] = page.data;
  assert.equal([line!.app_id, line!.source, line!.level, line!.request_method, line!.request_path, line!.response_status, line!.app_build_id],
    [a.id, 'request', 'warn', 'GET', '/apps/{id}', 404, null]);
  assert.is(page.page_info.has_next_page, false);
  assert.equal((await sdk(app, o.key).apps.logs(a.id, { level: 'warn' })).data, [], 'level narrows to console lines');
  await rejects(sdk(app, (await makeOwner(app.db)).key).apps.logs(a.id), NotFoundError, 404);
});

t.run();
