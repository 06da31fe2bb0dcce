// An export's CSV that the account went on to use (an audience's customer list) outlives the export's retention:
// the export expires, the file stays with its user. Both sides of files <- audiences.file_id: expiring the file's
// export (the parent's delete) and removing the audience (the child) leave nothing broken.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { makeOwner } from '../helpers/fixtures.js';
import { generateExport } from '../../handlers/exports/generate.js';
import { expireExports } from '../../handlers/exports/expire.js';

const LATEST = '2026-09-06';
const DAY = 24 * 3600 * 1000;
const t = suite('exports: expiring a file in use');
let app: TestApp;
let env: { close(): Promise<void>; env: FileEnv };
t.before(async () => { const s = await startAppWithStore(); app = s.app; env = s; });
t.after(async () => { await env.close(); });

type Owner = Awaited<ReturnType<typeof makeOwner>>;

async function completedExport(o: Owner) {
  const created = await app.request('POST', '/exports', { token: o.key, version: LATEST, body: { account_id: o.accountId, resource: 'members' } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  await generateExport(app.db, created.body.id);
  const done = await app.request('GET', `/exports/${created.body.id}`, { token: o.key, version: LATEST });
  assert.is(done.body.status, 'completed');
  return done.body as { id: string; file_id: string; completed_at: string };
}

const audienceFrom = async (o: Owner, fileId: string) => {
  const res = await app.request('POST', '/audiences', { token: o.key, version: LATEST, body: {
    account_id: o.accountId, name: 'From the export', source_type: 'customer_list', file_id: fileId, column_mapping: { email: 'email' } } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string };
};

t('an export whose CSV an audience uses expires; the file stays, readable, and the audience keeps it', async () => {
  const o = await makeOwner(app.db);
  const e = await completedExport(o);
  const audience = await audienceFrom(o, e.file_id);
  const expired = await expireExports(app.db, new Date(Date.parse(e.completed_at) + 31 * DAY));
  assert.ok(expired.includes(e.id));
  const after = await app.request('GET', `/exports/${e.id}`, { token: o.key, version: LATEST });
  assert.equal([after.body.status, after.body.file_id, after.body.download_url], ['expired', null, null]);
  const file = await app.request('GET', `/files/${e.file_id}`, { token: o.key, version: LATEST });
  assert.is(file.status, 200, JSON.stringify(file.body));
  assert.is(file.body.status, 'ready');
  const kept = await app.request('GET', `/audiences/${audience.id}`, { token: o.key, version: LATEST });
  assert.is(kept.body.file_id, e.file_id);
});

t('other exports expiring in the same run still lose their files', async () => {
  const o = await makeOwner(app.db);
  const used = await completedExport(o);
  await audienceFrom(o, used.file_id);
  const unused = await completedExport(o);
  const expired = await expireExports(app.db, new Date(Math.max(Date.parse(used.completed_at), Date.parse(unused.completed_at)) + 31 * DAY));
  assert.ok(expired.includes(used.id) && expired.includes(unused.id));
  assert.is((await app.request('GET', `/files/${unused.file_id}`, { token: o.key, version: LATEST })).status, 404);
  assert.is((await app.request('GET', `/files/${used.file_id}`, { token: o.key, version: LATEST })).status, 200);
});

t('the audience deleted first: it keeps its history, so the file stays; the export still expires', async () => {
  const o = await makeOwner(app.db);
  const e = await completedExport(o);
  const audience = await audienceFrom(o, e.file_id);
  assert.is((await app.request('DELETE', `/audiences/${audience.id}`, { token: o.key, version: LATEST })).status, 200);
  assert.ok((await expireExports(app.db, new Date(Date.parse(e.completed_at) + 31 * DAY))).includes(e.id));
  assert.is((await app.request('GET', `/exports/${e.id}`, { token: o.key, version: LATEST })).body.status, 'expired');
});

t.run();
