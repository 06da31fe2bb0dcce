// Files over HTTP with real bytes: single and multipart uploads through the signed links, limits, expiry, signatures,
// the creator-only rule, downloads honouring visibility, and the official client's upload helper.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { deleteFileObjects } from '../../handlers/files/file-objects.js';
import { sdk } from '../sdk/sdk-helpers.js';
import { useTemporaryStore, type FileEnv } from './file-env.js';

const t = suite('files');
let app: TestApp;
let env: FileEnv;
let owner: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  env = useTemporaryStore(app);
  owner = await makeOwner(app.db);
});
t.after(async () => {
  env.restore();
  await app.close();
});

const create = (body: Record<string, unknown>, token = owner.key, version?: string) =>
  app.request('POST', '/files', { token, body, version });
const put = (url: string, bytes: Uint8Array | string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', body: bytes as BodyInit, headers });
const bodyOf = async (res: Response) => JSON.parse(await res.text());

t('single upload: pending with a signed destination, ready after the PUT, downloaded byte for byte', async () => {
  const created = await create({ filename: 'photo.png' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const f = created.body;
  assert.match(f.id, /^file_/);
  assert.is(f.status, 'pending');
  assert.is(f.content_type, 'image/png');
  for (const field of ['object', 'visibility', 'created_at', 'size', 'url']) assert.is(f[field], null, field);
  assert.match(f.upload_url, /\/uploads\/file_\w+\/1\?expires=\d+&signature=/);
  assert.equal(f.upload_headers, { 'Content-Type': 'image/png' });
  assert.is(f.upload_parts, null);
  assert.is(f.max_size, 104857600);

  const bytes = randomBytes(5000);
  const res = await put(f.upload_url, bytes, f.upload_headers);
  assert.is(res.status, 200, await res.clone().text());
  const got = await app.request('GET', `/files/${f.id}`, { token: owner.key });
  assert.is(got.status, 200);
  assert.is(got.body.status, 'ready');
  assert.is(got.body.object, 'file');
  assert.is(got.body.size, 5000);
  assert.is(got.body.visibility, 'private');
  assert.ok(got.body.created_at);
  assert.is(got.body.upload_url, null);
  const download = await fetch(got.body.url);
  assert.is(download.status, 200);
  assert.is(download.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await download.arrayBuffer()).equals(bytes));
  // A second PUT to a ready file is refused and changes nothing.
  assert.is((await put(f.upload_url, 'again')).status, 409);
});

t('private downloads need the signature; public ones are permanent links', async () => {
  const priv = (await create({ filename: 'a.txt' })).body;
  await put(priv.upload_url, 'secret text');
  const url = (await app.request('GET', `/files/${priv.id}`, { token: owner.key })).body.url as string;
  assert.is((await fetch(url.split('?')[0])).status, 403);
  assert.is((await fetch(url.replace(/signature=[^&]+/, 'signature=AAAA'))).status, 403);
  assert.is(await (await fetch(url)).text(), 'secret text');

  const pub = (await create({ filename: 'logo.png', visibility: 'public' })).body;
  await put(pub.upload_url, 'png bytes');
  const ready = (await app.request('GET', `/files/${pub.id}`, { token: owner.key })).body;
  assert.is(ready.visibility, 'public');
  assert.not.match(ready.url, /signature=/);
  assert.is(await (await fetch(ready.url)).text(), 'png bytes');
});

t('multipart: parts with their own links, complete checks them and assembles the file', async () => {
  const parts = [randomBytes(3000), randomBytes(3000), randomBytes(1234)];
  const f = (await create({ filename: 'movie.mp4', parts: 3, size: 7234 })).body;
  assert.is(f.upload_url, null);
  assert.is(f.upload_parts.length, 3);
  assert.equal(f.upload_parts.map((p: any) => p.part_number), [1, 2, 3]);
  assert.is(new Set(f.upload_parts.map((p: any) => p.upload_url)).size, 3);
  await put(f.upload_parts[0].upload_url, parts[0]);
  await put(f.upload_parts[2].upload_url, parts[2]);

  const early = await app.request('POST', `/files/${f.id}/complete`, { token: owner.key });
  assert.is(early.status, 400);
  assert.is(early.body.error.param, 'parts');
  assert.match(early.body.error.message, /Parts not uploaded yet: 2 \(of 3\)/);
  assert.is((await app.db('files').where({ id: f.id }).first()).status, 'pending');

  // A part sent again replaces the first attempt.
  await put(f.upload_parts[1].upload_url, randomBytes(10));
  await put(f.upload_parts[1].upload_url, parts[1]);
  const done = await app.request('POST', `/files/${f.id}/complete`, { token: owner.key });
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.status, 'ready');
  assert.is(done.body.size, 7234);
  const download = Buffer.from(await (await fetch(done.body.url)).arrayBuffer());
  assert.ok(download.equals(Buffer.concat(parts)));
  assert.is((await app.db('file_parts').where({ file_id: f.id })).length, 0);
  // The parts' objects go after the commit, by the delete_file_objects job (run here by hand).
  const jobs = await app.db('graphile_worker._private_jobs as j').join('graphile_worker._private_tasks as t', 't.id', 'j.task_id')
    .where({ 't.identifier': 'delete_file_objects' }).select('j.payload');
  assert.ok(jobs.length > 0);
  for (const { payload } of jobs) await deleteFileObjects(app.db, payload.keys);
  assert.equal((await env.objects()).filter((o) => o.startsWith(f.id)).length, 1);

  const again = await app.request('POST', `/files/${f.id}/complete`, { token: owner.key });
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
});

t('multipart: parts adding up to another size than declared are refused, nothing changes', async () => {
  const f = (await create({ filename: 'a.bin', parts: 2, size: 10 })).body;
  assert.is(f.content_type, 'application/octet-stream');
  await put(f.upload_parts[0].upload_url, '12345');
  await put(f.upload_parts[1].upload_url, '123');
  const res = await app.request('POST', `/files/${f.id}/complete`, { token: owner.key });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'size');
  assert.is((await app.db('files').where({ id: f.id }).first()).status, 'pending');
});

t('complete on a single upload is an invalid_state naming parts', async () => {
  const f = (await create({ filename: 'x.txt' })).body;
  const res = await app.request('POST', `/files/${f.id}/complete`, { token: owner.key });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_state');
  assert.is(res.body.error.param, 'parts');
});

t('past the declared size: 413, no object, no row change', async () => {
  const f = (await create({ filename: 'small.txt', size: 10 })).body;
  const before = await env.objects();
  // Without a Content-Length (a stream), so the limit is met while the bytes arrive.
  const res = await fetch(f.upload_url, {
    method: 'PUT', body: new Blob(['x'.repeat(11)]).stream(), duplex: 'half',
  } as RequestInit);
  assert.is(res.status, 413);
  assert.is((await bodyOf(res)).error.param, 'size');
  assert.equal(await env.objects(), before);
  const row = await app.db('files').where({ id: f.id }).first();
  assert.is(row.status, 'pending');
  assert.is(row.size, null);
  // With a Content-Length, refused before reading.
  assert.is((await put(f.upload_url, 'y'.repeat(11))).status, 413);
  // Fewer bytes than declared: a 400, nothing stored.
  const short = await put(f.upload_url, 'short');
  assert.is(short.status, 400);
  assert.equal(await env.objects(), before);
  assert.is((await put(f.upload_url, '0123456789')).status, 200);
});

t('past the upload window: refused, nothing left behind, the file shows failed', async () => {
  const f = (await create({ filename: 'late.txt' })).body;
  await app.db('files').where({ id: f.id }).update({ upload_expires_at: new Date(Date.now() - 1000).toISOString() }); // sql-state-write: the upload window runs on real time (pg_catalog.now(), never a sandbox clock) for FILE_UPLOAD_SECONDS, an hour
  const before = await env.objects();
  const res = await put(f.upload_url, 'too late');
  assert.is(res.status, 403);
  assert.match((await bodyOf(res)).error.message, /window closed/);
  assert.equal(await env.objects(), before);
  const got = await app.request('GET', `/files/${f.id}`, { token: owner.key });
  assert.is(got.body.status, 'failed');
  assert.is(got.body.size, null);
  const m = (await create({ filename: 'late.bin', parts: 2 })).body;
  await put(m.upload_parts[0].upload_url, 'a');
  await put(m.upload_parts[1].upload_url, 'b');
  await app.db('files').where({ id: m.id }).update({ upload_expires_at: new Date(Date.now() - 1000).toISOString() }); // sql-state-write: the upload window runs on real time (pg_catalog.now(), never a sandbox clock) for FILE_UPLOAD_SECONDS, an hour
  const complete = await app.request('POST', `/files/${m.id}/complete`, { token: owner.key });
  assert.is(complete.status, 400);
  assert.is(complete.body.error.param, 'upload_expires_at');
});

t('an expired or forged signature is a 403; an unknown file or part a 404', async () => {
  const f = (await create({ filename: 'sig.txt' })).body;
  const url = new URL(f.upload_url);
  const expired = new URL(url);
  expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
  assert.is((await put(expired.toString(), 'x')).status, 403);
  const other = (await create({ filename: 'other.txt' })).body;
  // One file's signature does not open another's destination.
  const swapped = new URL(other.upload_url);
  swapped.search = url.search;
  assert.is((await put(swapped.toString(), 'x')).status, 403);
  const part2 = new URL(url);
  part2.pathname = part2.pathname.replace(/\/1$/, '/2');
  assert.is((await put(part2.toString(), 'x')).status, 403);
  assert.is((await fetch(`${url.origin}/downloads/file_nope/x.txt`)).status, 404);
  assert.is((await app.db('files').where({ id: f.id }).first()).status, 'pending');
});

t('only the creator sees a file: another account, another key of the same account, a user token', async () => {
  const f = (await create({ filename: 'mine.txt' })).body;
  const other = await makeOwner(app.db);
  const res = await app.request('GET', `/files/${f.id}`, { token: other.key });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is((await app.request('POST', `/files/${f.id}/complete`, { token: other.key })).status, 404);
  // The account is the caller for API keys: its other keys see it; the account's owner (a user) does not.
  const second = await makeKey(app.db, { accountId: owner.accountId, role: 'admin' });
  assert.is((await app.request('GET', `/files/${f.id}`, { token: second.secret })).status, 200);
  assert.is((await app.request('GET', `/files/${f.id}`, { token: owner.token })).status, 404);
  const user = await makeUser(app.db);
  const own = await create({ filename: 'by-user.txt' }, user.token, '2026-09-06');
  assert.is(own.status, 201);
  assert.is((await app.request('GET', `/files/${own.body.id}`, { token: user.token })).status, 200);
  assert.is((await app.request('GET', `/files/${own.body.id}`, { token: owner.key })).status, 404);
});

t('bad input names the field', async () => {
  for (const [body, param] of [
    [{}, 'filename'],
    [{ filename: 'a.exe', content_type: 'application/x-msdownload' }, 'content_type'],
    [{ filename: 'a.txt', size: 104857601 }, 'size'],
    [{ filename: 'a.txt', parts: 101 }, 'parts'],
    [{ filename: 'a.txt', visibility: 'everyone' }, 'visibility'],
  ] as const) {
    const res = await create(body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param);
  }
});

t('at the official client\'s pin: upload_status, size as a string, no multipart; complete does not exist', async () => {
  const f = (await create({ filename: 'old.txt' }, owner.key, '2026-07-20'));
  assert.is(f.status, 200);
  assert.is(f.body.upload_status, 'pending');
  assert.is(f.body.status, undefined);
  assert.is(f.body.upload_parts, undefined);
  assert.is(f.body.object, undefined);
  await put(f.body.upload_url, 'hello');
  const got = await app.request('GET', `/files/${f.body.id}`, { token: owner.key, version: '2026-07-20' });
  assert.is(got.body.upload_status, 'ready');
  assert.is(got.body.size, '5');
  const complete = await app.request('POST', `/files/${f.body.id}/complete`, { token: owner.key, version: '2026-07-20' });
  assert.is(complete.status, 404);
  const parts = await create({ filename: 'old.bin', parts: 2 }, owner.key, '2026-07-20');
  assert.is(parts.status, 400);
  assert.is(parts.body.error.param, 'parts');
});

t('the official client uploads through the server (files.upload: create, PUT, poll)', async () => {
  const client = sdk(app, owner.key);
  const bytes = randomBytes(2048);
  const file = await client.files.upload(new File([bytes], 'sdk.pdf'));
  assert.is(file.upload_status, 'ready');
  assert.is(file.size, '2048');
  assert.is(file.content_type, 'application/pdf');
  assert.ok(Buffer.from(await (await fetch(file.url!)).arrayBuffer()).equals(bytes));
  const again = await client.files.retrieve(file.id);
  assert.is(again.filename, 'sdk.pdf');
});

t.run();
