// blueprint_id with the worker running: an account created from a hosted app whose approved web build is in
// production gets a website at its route, deployed in the background from that build; the build itself went
// through the simulated build system on the same worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { makeApp, uploadArtifact, VERSION } from './app-fixtures.js';
import { SITES_HOST } from '../../handlers/accounts/account-sites.js';

const t = suite('blueprint websites');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp({ worker: true }); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

t('the worker builds, reviews and the account\'s website deploys the blueprint\'s production web build', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const build = await app.request('POST', '/app_builds', { token: o.key, version: VERSION,
    body: { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web', supported_app_view_types: ['hub'] } });
  assert.is(build.status, 201);
  await until(async () => (await app.request('GET', `/app_builds/${build.body.id}`, { token: o.key, version: VERSION })).body.status === 'approved',
    'the build approved by the build system');
  assert.is((await app.request('POST', `/app_builds/${build.body.id}/promote`, { token: o.key, version: VERSION })).status, 200);

  const res = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: 'From template', blueprint_id: a.id } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const site = await until(async () => {
    const row = await app.db('account_sites').where({ account_id: res.body.id }).first();
    return row?.status === 'queued' ? undefined : row;
  }, 'the website deployed');
  const account = await app.db('accounts').where({ id: res.body.id }).first('route');
  assert.equal([site.status, site.app_build_id, site.url, site.failure_reason], ['deployed', build.body.id, `https://${account.route}.${SITES_HOST}`, null]);
  assert.ok(site.deployed_at);
  assert.is((await app.request('GET', `/apps/${a.id}`, { token: o.key, version: VERSION })).body.template_usage, 1);
});

t.run();
