// Several hosts, one system: with the default store (PostgreSQL; or FILE_STORAGE=s3 when the run sets it) a file uploaded through one host is downloaded
// through another, parts of one upload may go to different hosts, and an export written by one host's job is served
// by the other. The second host is a real `npm start` process with a file directory of its own (nothing shared on
// disk) and the same FILE_SIGNING_SECRET: the links one host signs verify on the other.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { startApiCluster, type ApiCluster } from '../helpers/processes.js';
import { makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { generateExport } from '../../handlers/exports/generate.js';
import { fileStorage } from '../../runtime/file-storage.js';

const LATEST = '2026-09-06';
const SECRET = `shared-${randomBytes(8).toString('hex')}`;
const t = suite('files on several hosts');
let app: TestApp;
let other: ApiCluster;
const dirs = [mkdtempSync(join(tmpdir(), 'host-a-')), mkdtempSync(join(tmpdir(), 'host-b-'))];
const saved = { secret: process.env.FILE_SIGNING_SECRET, dir: process.env.FILE_STORAGE_DIR, base: process.env.PUBLIC_BASE_URL };
let seller: Awaited<ReturnType<typeof makeSeller>>;

t.before(async () => {
  // Set before anything is signed or sealed: both hosts share the secret, not a directory.
  process.env.FILE_SIGNING_SECRET = SECRET;
  process.env.FILE_STORAGE_DIR = dirs[0];
  app = await startTestApp();
  process.env.PUBLIC_BASE_URL = new URL(app.url).origin;
  other = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, env: { FILE_SIGNING_SECRET: SECRET, FILE_STORAGE_DIR: dirs[1] } });
  seller = await makeSeller(app.db);
});
t.after(async () => {
  await other?.stop();
  await app?.close();
  for (const [name, value] of [['FILE_SIGNING_SECRET', saved.secret], ['FILE_STORAGE_DIR', saved.dir], ['PUBLIC_BASE_URL', saved.base]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The same link on the other host: only the origin changes, the signed path and query stay. */
const onOther = (link: string) => {
  const u = new URL(link);
  return `${new URL(other.url).origin}${u.pathname}${u.search}`;
};
const hostB = (method: string, path: string, body?: unknown) => fetch(`${other.url}${path}`, {
  method, headers: { authorization: `Bearer ${seller.key}`, 'api-version-date': LATEST, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

t('a multipart upload with parts through both hosts, completed on one, downloaded from both', async () => {
  const parts = [randomBytes(300_000), randomBytes(1_500_000)];
  const created = await app.request('POST', '/files', { token: seller.key, version: LATEST, body: { filename: 'both.bin', parts: 2, visibility: 'private' } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const f = created.body;
  assert.is((await fetch(f.upload_parts[0].upload_url, { method: 'PUT', body: parts[0] })).status, 200);
  assert.is((await fetch(onOther(f.upload_parts[1].upload_url), { method: 'PUT', body: parts[1] })).status, 200);
  const done = await hostB('POST', `/files/${f.id}/complete`);
  assert.is(done.status, 200);
  const file = await done.json();
  assert.is(file.size, parts[0].length + parts[1].length);
  for (const link of [file.url, onOther(file.url)]) {
    const res = await fetch(link);
    assert.is(res.status, 200, link);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(Buffer.concat(parts)));
  }
  // The bytes are in the shared store (by default the database), nowhere on either host's disk.
  const row = await app.db('files').where({ id: f.id }).first();
  assert.is(await fileStorage(app.db).size(row.storage_key), file.size);
  if ((process.env.FILE_STORAGE || 'postgres') === 'postgres') {
    assert.is(Number((await app.db('stored_objects').where({ key: row.storage_key }).first()).size), file.size);
  }
  for (const dir of dirs) assert.equal(readdirSync(dir).filter((name) => !name.startsWith('.')), []);
  // A link altered after signing is refused by the other host too.
  // (its first character changed: to x, or to y when it was x, so the link always differs)
  const altered = onOther(file.url).replace(/signature=(.)/, (_, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`);
  assert.is((await fetch(altered)).status, 403);
});

t('an export written by one host\'s job is downloaded from the other', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  await pay(app, seller, { plan_id: variant.id });
  const res = await hostB('POST', '/exports', { account_id: seller.accountId, resource: 'payments' });
  assert.is(res.status, 201);
  const e = await res.json();
  await generateExport(app.db, e.id);
  const done = (await app.request('GET', `/exports/${e.id}`, { token: seller.key, version: LATEST })).body;
  assert.is(done.status, 'completed');
  const download = await fetch(onOther(done.download_url));
  assert.is(download.status, 200);
  assert.is(download.headers.get('content-type'), 'text/csv');
  const lines = (await download.text()).trim().split('\n');
  assert.is(lines.length, 2);
  assert.ok(lines[0].split(',').includes('id'));
});

t.run();
