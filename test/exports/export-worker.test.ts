// generate_export on the real worker: an export created over HTTP is written in the background, and the file
// downloads; the multipart parts' objects are removed by delete_file_objects after /complete.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { waitFor } from '../memberships/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';

const LATEST = '2026-09-06';
const t = suite('exports and files on the worker');
let app: TestApp;
let env: FileEnv;
t.before(async () => {
  app = await startTestApp({ worker: true });
  env = useTemporaryStore(app);
});
t.after(async () => {
  env.restore();
  await app.close();
});

t('an export is completed by the worker and its CSV downloads', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/exports', { token: o.key, version: LATEST, body: { account_id: o.accountId, resource: 'members' } });
  assert.is(created.status, 201);
  const done = await waitFor(async () => {
    const res = await app.request('GET', `/exports/${created.body.id}`, { token: o.key, version: LATEST });
    return res.body.status === 'completed' ? res.body : null;
  });
  assert.is(done.row_count, 0);
  const res = await fetch(done.download_url);
  assert.is(res.status, 200);
  assert.match(await res.text(), /^id,/);
});

t('after /complete the worker removes the parts\' objects', async () => {
  const o = await makeOwner(app.db);
  const f = (await app.request('POST', '/files', { token: o.key, version: LATEST, body: { filename: 'a.bin', parts: 2 } })).body;
  for (const [i, part] of f.upload_parts.entries()) await fetch(part.upload_url, { method: 'PUT', body: `part ${i}` });
  assert.is((await env.objects()).filter((k) => k.startsWith(f.id)).length, 2);
  const done = await app.request('POST', `/files/${f.id}/complete`, { token: o.key, version: LATEST });
  assert.is(done.status, 200);
  await waitFor(async () => (await env.objects()).filter((k) => k.startsWith(f.id)).length === 1 || null);
  assert.is(await (await fetch(done.body.url)).text(), 'part 0part 1');
});

t.run();
