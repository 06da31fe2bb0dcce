import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { lockKey } from '../../runtime/idempotency.js';
import { unseal } from '../../runtime/sealed-secrets.js';
import { holdRowLock } from '../helpers/processes.js';
import { assertError, send } from './envelope.js';
import { startEchoServer } from './echo-operation.js';

const t = suite('runtime: Idempotency-Key');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let n = 0;

t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db);
});
t.after(async () => { await app.close(); });

const uniqueKey = () => `idem-${Date.now()}-${n++}`;
const connected = async () => Number((await app.db('accounts').where({ parent_id: o.accountId }).count({ n: '*' }))[0].n);
const create = (key: string, body: Record<string, unknown>, token = o.key) =>
  app.request('POST', '/accounts', { token, body, idempotencyKey: key });

t('a retry with the same key and body replays the stored status and body, and creates nothing', async () => {
  const key = uniqueKey();
  const before = await connected();
  const first = await create(key, { email: 'replay@example.com', title: 'Replay Shop' });
  assert.is(first.status, 201, JSON.stringify(first.body));
  assert.is(first.headers.get('idempotent-replayed'), null);
  const again = await create(key, { title: 'Replay Shop', email: 'replay@example.com' }); // key order does not matter
  assert.is(again.status, 201);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body, first.body);
  assert.is(await connected(), before + 1);
  const row = await app.db('idempotency_keys').where({ credential_id: o.keyId, key }).first();
  assert.is(row.state, 'done');
  assert.is(row.status_code, 201);
  assert.is(row.operation_id, 'createAccount');
});

t('the same key with a different body is a 400 idempotency_error naming the header', async () => {
  const key = uniqueKey();
  assert.is((await create(key, { email: 'a@example.com', title: 'First' })).status, 201);
  const res = await create(key, { email: 'a@example.com', title: 'Second' });
  assertError(res, 400, 'idempotency_error', 'Idempotency-Key');
});

t('a key still running for this credential is a 409 idempotency_in_progress, and nothing is created', async () => {
  const key = uniqueKey();
  const body = { email: 'running@example.com', title: 'Running' };
  // "Running" is the key's advisory lock, held by the request's transaction: here, by the test's own.
  const holder = await app.db.transaction();
  try {
    await holder.raw('select pg_advisory_xact_lock(?::bigint)', [String(lockKey(o.keyId, key))]);
    const before = await connected();
    const res = await create(key, body);
    assertError(res, 409, 'idempotency_in_progress');
    assert.is(await connected(), before);
    assert.is(await app.db('idempotency_keys').where({ credential_id: o.keyId, key }).first(), undefined, 'nothing recorded');
  } finally {
    await holder.rollback();
  }
  // The holder is gone (as a crashed request's connection would be): the key is free at once.
  const res = await create(key, body);
  assert.is(res.status, 201, JSON.stringify(res.body));
});

t('a request whose database connection dies inside its transaction leaves the key free for an immediate retry', async () => {
  const key = uniqueKey();
  const body = { email: 'cut@example.com', title: 'Cut Off' };
  // The test locks the parent account's row; the create blocks on it inside its transaction, holding the key.
  const lock = await holdRowLock(app.db, 'accounts', o.accountId);
  let pending: ReturnType<typeof create> | undefined;
  try {
    pending = create(key, body);
    const [blocked] = await lock.waitForWaiters(1, 10_000);
    // While it runs, a duplicate is told so.
    assertError(await create(key, body), 409, 'idempotency_in_progress');
    await app.db.raw('select pg_terminate_backend(?)', [blocked]);
  } finally {
    await lock.release();
  }
  const cut = await pending!;
  assert.ok(cut.status >= 500, `the cut-off request fails: ${cut.status}`);
  const before = await connected();
  const retry = await create(key, body);
  assert.is(retry.status, 201, JSON.stringify(retry.body));
  assert.is(retry.headers.get('idempotent-replayed'), null);
  assert.is(await connected(), before + 1);
  assert.is((await create(key, body)).body.id, retry.body.id);
});

t('an expired record is taken over: the request runs and its response replaces the old one', async () => {
  const key = uniqueKey();
  await app.db('idempotency_keys').insert({ // sql-state-write: a record past its 24-hour retention: the clock does not move idempotency records, and waiting a day is not a test
    credential_id: o.keyId, key, operation_id: 'createAccount', request_hash: 'stale-hash', state: 'done',
    status_code: 201, response: JSON.stringify({ id: 'biz_stale' }), expires_at: app.db.raw("now() - interval '1 minute'"),
  });
  const res = await create(key, { email: 'expired@example.com', title: 'Taken Over' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.headers.get('idempotent-replayed'), null);
  assert.is.not(res.body.id, 'biz_stale');
  const row = await app.db('idempotency_keys').where({ credential_id: o.keyId, key }).first();
  assert.is(row.state, 'done');
  assert.is(row.response.id, res.body.id);
  assert.ok(Date.parse(row.expires_at) > Date.now() + 23 * 3600_000, 'a fresh 24-hour window');
});

t('an expired record left running (a crashed request) is taken over too', async () => {
  const key = uniqueKey();
  await app.db('idempotency_keys').insert({ // sql-state-write: a crashed request's record past retention: no live request leaves one, and waiting a day is not a test
    credential_id: o.keyId, key, operation_id: 'createAccount', request_hash: 'whatever', state: 'running',
    expires_at: app.db.raw("now() - interval '1 second'"),
  });
  const res = await create(key, { email: 'crashed@example.com', title: 'Crashed Before' });
  assert.is(res.status, 201, JSON.stringify(res.body));
});

t('keys are scoped to the credential: the same key on two API keys gives two results', async () => {
  const other = await makeKey(app.db, { accountId: o.accountId, role: 'admin' });
  const key = uniqueKey();
  const body = { email: 'scoped@example.com', title: 'Scoped' };
  const a = await create(key, body);
  const b = await create(key, body, other.secret);
  assert.is(a.status, 201);
  assert.is(b.status, 201);
  assert.is(b.headers.get('idempotent-replayed'), null);
  assert.is.not(a.body.id, b.body.id);
  const rows = await app.db('idempotency_keys').where({ key }).orderBy('credential_id');
  assert.equal(rows.map((r) => r.credential_id).sort(), [o.keyId, other.id].sort());
  // Each credential's retry replays its own result.
  assert.is((await create(key, body, other.secret)).body.id, b.body.id);
  assert.is((await create(key, body)).body.id, a.body.id);
});

t('a business-rule error is stored and replayed, with the replay\'s own request id in the envelope', async () => {
  const key = uniqueKey();
  const body = { email: 'ref@example.com', title: 'Referred', affiliate_code: 'no_such_partner_zz' };
  const first = await create(key, body);
  assertError(first, 400, 'invalid_request', 'affiliate_code');
  const again = await create(key, body);
  assertError(again, 400, 'invalid_request', 'affiliate_code');
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.is(again.body.error.message, first.body.error.message);
  assert.is(again.headers.get('original-request'), first.body.error.request_id);
});

t('concurrent requests with one key create one account; the others replay it or are told it is in progress', async () => {
  const key = uniqueKey();
  const before = await connected();
  const results = await Promise.all(Array.from({ length: 6 }, () => create(key, { email: 'race@example.com', title: 'Race' })));
  assert.is(await connected(), before + 1);
  const created = results.filter((r) => r.status === 201);
  assert.ok(created.length >= 1, results.map((r) => r.status).join(','));
  for (const r of created) assert.is(r.body.id, created[0].body.id);
  for (const r of results.filter((x) => x.status !== 201)) assertError(r, 409, 'idempotency_in_progress');
});

t('a server error frees the key: the retry runs, and the retry after that replays it', async () => {
  const echo = await startEchoServer(app.db);
  try {
    const key = uniqueKey();
    const post = () => send(`${echo.base}/test_flaky`, {
      method: 'POST',
      headers: { authorization: `Bearer ${o.key}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ n: 7 }),
    });
    assertError(await post(), 500, 'api_error');
    assert.is(await app.db('idempotency_keys').where({ credential_id: o.keyId, key }).first(), undefined);
    const retry = await post();
    assert.is(retry.status, 201, retry.text);
    assert.equal(retry.body, { n: 7, attempt: 2 });
    const replay = await post();
    assert.is(replay.status, 201);
    assert.is(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body, { n: 7, attempt: 2 });
  } finally {
    await echo.close();
  }
});

t('a success is written as text once: the stored answer is the text sent, and a replay sends the same bytes', async () => {
  const key = uniqueKey();
  const post = () => fetch(`${app.url}/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.key}`, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'text-once@example.com', title: 'Text Once' }),
  });
  const first = await post();
  const firstText = await first.text();
  assert.is(first.status, 201, firstText);
  const again = await post();
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.is(await again.text(), firstText);
  const row = await app.db('idempotency_keys').where({ credential_id: o.keyId, key }).first();
  assert.is(row.response.id, JSON.parse(firstText).id);
  assert.is(unseal(row.response.sealed), firstText);
});

t('an over-long key is a 400 naming the header; GET ignores the header', async () => {
  assertError(await create('k'.repeat(256), { email: 'long@example.com' }), 400, 'invalid_request', 'Idempotency-Key');
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key, idempotencyKey: 'k'.repeat(300) });
  assert.is(res.status, 200);
});

t.run();
