// Review attachments over HTTP: files the member uploaded with their own token, attached in order and shown with
// download links on create, retrieve and list; another's, a pending or a repeated file is refused naming it, and
// nothing is written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';

const t = suite('review attachments');
let app: TestApp;
let env: FileEnv;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

async function upload(token: string, filename: string, bytes: string | null = filename) {
  const res = await call('POST', '/files', { token, body: { filename } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  if (bytes !== null) {
    const put = await fetch(res.body.upload_url, { method: 'PUT', body: bytes as unknown as BodyInit, headers: res.body.upload_headers });
    assert.is(put.status, 200);
  }
  return res.body.id as string;
}

t('a member attaches their files: shown in order with download links, on create, retrieve and list', async () => {
  const o = await makeOwner(app.db);
  const member = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, member.id);
  const photo = await upload(member.token, 'photo.png');
  const receipt = await upload(member.token, 'receipt.pdf');
  const res = await call('POST', '/reviews', { token: member.token, body: { product_id: m.productId, stars: 5, attachments: [{ id: receipt }, { id: photo }] } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.attachments.map((a: any) => [a.id, a.filename, a.content_type]), [[receipt, 'receipt.pdf', 'application/pdf'], [photo, 'photo.png', 'image/png']]);
  const read = await call('GET', `/reviews/${res.body.id}`, { token: o.key });
  assert.equal(read.body.attachments.map((a: any) => a.id), [receipt, photo]);
  const got = await fetch(read.body.attachments[1].url);
  assert.equal([got.status, await got.text()], [200, 'photo.png'], 'the seller downloads it through the signed link');
  const listed = await call('GET', '/reviews', { token: o.key, query: { product_id: m.productId } });
  assert.equal(listed.body.data[0].attachments.map((a: any) => a.id), [receipt, photo]);
  const plain = await call('POST', '/reviews', { token: (await (async () => {
    const other = await makeUser(app.db);
    await makeMembership(app, o.accountId, other.id, { productId: m.productId, planId: m.planId });
    return other.token;
  })()), body: { product_id: m.productId, stars: 3 } });
  assert.equal(plain.body.attachments, []);
});

t('another\'s file, a pending one or the same one twice (400) names attachments[i].id; nothing is written', async () => {
  const o = await makeOwner(app.db);
  const member = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, member.id);
  const mine = await upload(member.token, 'mine.png');
  const theirs = await upload(o.key, 'theirs.png');
  const pending = await upload(member.token, 'later.png', null);
  for (const [attachments, status, param] of [
    [[{ id: mine }, { id: theirs }], 400, 'attachments[1].id'],
    [[{ id: pending }], 400, 'attachments[0].id'],
    [[{ id: mine }, { id: mine }], 400, 'attachments[1].id'],
  ] as const) {
    const res = await call('POST', '/reviews', { token: member.token, body: { product_id: m.productId, stars: 2, attachments } });
    assert.equal([res.status, res.body.error.param], [status, param], JSON.stringify(res.body));
  }
  const tooMany = await call('POST', '/reviews', { token: member.token, body: { product_id: m.productId, stars: 2, attachments: Array(11).fill({ id: mine }) } });
  assert.equal([tooMany.status, tooMany.body.error.param], [400, 'attachments']);
  assert.is((await app.db('reviews').where({ product_id: m.productId })).length, 0);
});

t.run();
