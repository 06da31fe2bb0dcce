import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { assertError, send } from './envelope.js';

const t = suite('runtime: request bodies');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;

t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db, { title: 'Body Tests' });
});
t.after(async () => { await app.close(); });

const patch = (body: string | ArrayBuffer, contentType: string | null = 'application/json', extra: Record<string, string> = {}) =>
  send(`${app.url}/accounts/${owner.accountId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${owner.key}`, ...(contentType ? { 'content-type': contentType } : {}), ...extra },
    body,
  });

const titleNow = async () => (await app.db('accounts').where({ id: owner.accountId }).first('title')).title;

t('a well-formed body is accepted (the baseline the other cases differ from)', async () => {
  const res = await patch(JSON.stringify({ title: 'Renamed' }));
  assert.is(res.status, 200, res.text);
  assert.is(res.body.title, 'Renamed');
});

t('malformed JSON is a 400 invalid_request that says the body is not valid JSON', async () => {
  const res = await patch('{"title": "x",}');
  assertError(res, 400, 'invalid_request', null);
  assert.match(res.body.error.message, /^The body is not valid JSON: \S/);
  assert.is(await titleNow(), 'Renamed');
});

t('truncated JSON is a 400 as well', async () => {
  const res = await patch('{"title": "x"');
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, 'not valid JSON');
});

t('a text/plain body is a 400 naming the content type', async () => {
  const res = await patch(JSON.stringify({ title: 'Plain' }), 'text/plain');
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, 'application/json');
  assert.match(res.body.error.message, 'text/plain');
  assert.is(await titleNow(), 'Renamed');
});

t('a form-encoded body is a 400', async () => {
  const res = await patch('title=Form', 'application/x-www-form-urlencoded');
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, 'application/x-www-form-urlencoded');
});

t('application/json with a charset parameter is accepted', async () => {
  const res = await patch(JSON.stringify({ title: 'Charset' }), 'application/json; charset=utf-8');
  assert.is(res.status, 200, res.text);
  assert.is(res.body.title, 'Charset');
});

t('a body over 1 MiB is a 400 that states the limit', async () => {
  const big = JSON.stringify({ title: 'x', metadata: { note: 'y'.repeat(1024 * 1024) } });
  const res = await patch(big);
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, '1048576 bytes');
});

t('a body over 1 MiB sent chunked (no Content-Length) is a 400 too', async () => {
  const chunk = new TextEncoder().encode(`"${'z'.repeat(64 * 1024)}",`);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(c) { c.enqueue(new TextEncoder().encode('{"title":"x","metadata":{"a":[')); },
    pull(c) {
      if (sent++ < 20) c.enqueue(chunk);
      else { c.enqueue(new TextEncoder().encode('"end"]}}')); c.close(); }
    },
  });
  const res = await send(`${app.url}/accounts/${owner.accountId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, 'exceeds the limit');
  assert.is(res.headers.get('connection'), 'close');
});

t('a body just under 1 MiB is read (and then judged by the validator, not the size limit)', async () => {
  const res = await patch(JSON.stringify({ title: 'y'.repeat(1000 * 1000) }));
  assertError(res, 400, 'invalid_request', 'title');
  assert.match(res.body.error.message, 'at most 100 characters');
});

t('a JSON array body is a 400', async () => {
  const res = await patch('[{"title":"x"}]');
  assertError(res, 400, 'invalid_request');
  assert.match(res.body.error.message, 'must be a JSON object');
});

t('a JSON string, number, true and null body are each a 400', async () => {
  for (const body of ['"title"', '42', 'true', 'null']) {
    const res = await patch(body);
    assert.is(res.status, 400, `${body}: ${res.text}`);
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error.message, 'must be a JSON object', body);
  }
});

t('an unknown body field is a 400 naming it in error.param', async () => {
  const res = await patch(JSON.stringify({ title: 'Ok', colour: 'red' }));
  assertError(res, 400, 'invalid_request', 'colour');
  assert.match(res.body.error.message, "Unknown body field 'colour'");
  assert.is(await titleNow(), 'Charset');
});

t('an unknown nested field names its dotted path', async () => {
  const res = await patch(JSON.stringify({ business_address: { line1: 'a', city: 'b', postal_code: 'c', country: 'US', floor: 3 } }));
  assertError(res, 400, 'invalid_request', 'business_address.floor');
});

t('a wrong type for a known field names the field', async () => {
  const res = await patch(JSON.stringify({ send_customer_emails: 'yes' }));
  assertError(res, 400, 'invalid_request', 'send_customer_emails');
  assert.match(res.body.error.message, 'must be a boolean');
});

t('no body on PATCH, or an empty application/json one, is an empty update, not an error', async () => {
  const none = await send(`${app.url}/accounts/${owner.accountId}`, { method: 'PATCH', headers: { authorization: `Bearer ${owner.key}` } });
  assert.is(none.status, 200, none.text);
  assert.is(none.body.id, owner.accountId);
  const empty = await patch('');
  assert.is(empty.status, 200, empty.text);
});

t('after an oversized chunked body, the connection is closed rather than left unusable', async () => {
  // Sent on one keep-alive connection after the oversized upload above; a stale socket would reset or hang here.
  for (let i = 0; i < 3; i++) {
    const res = await patch(JSON.stringify({ title: `After ${i}` }));
    assert.is(res.status, 200, res.text);
  }
});

t('a NUL character in a string field is a 400 naming the field (PostgreSQL cannot store it)', async () => {
  const res = await patch('{"title":"a\\u0000b"}');
  assertError(res, 400, 'invalid_request', 'title');
  assert.match(res.body.error.message, 'NUL');
});

t('an unpaired surrogate or a NUL inside metadata is a 400 naming the nested field or its map', async () => {
  const value = await patch('{"metadata":{"note":"x\\ud800"}}');
  assertError(value, 400, 'invalid_request', 'metadata.note');
  assert.match(value.body.error.message, 'unpaired surrogate');
  const key = await patch('{"metadata":{"no\\u0000te":"x"}}');
  assertError(key, 400, 'invalid_request', 'metadata');
  const paired = await patch(JSON.stringify({ metadata: { note: 'fine 💥 \u00e9' } }));
  assert.is(paired.status, 200, paired.text);
  assert.is(paired.body.metadata.note, 'fine 💥 é');
});

t('a body nested 200,000 levels deep is a 400, not a crash', async () => {
  for (const open of ['[', '{"a":']) {
    const depth = 200_000;
    const close = open === '[' ? ']' : '}';
    const res = await patch(`{"metadata":${open.repeat(depth)}1${close.repeat(depth)}}`);
    assertError(res, 400, 'invalid_request');
  }
});

t('invalid UTF-8 in a JSON body is a 4xx envelope, never a 5xx', async () => {
  const bytes = new Uint8Array([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
  const res = await patch(bytes.buffer);
  assert.ok(res.status < 500, res.text);
  if (res.status !== 200) assertError(res, 400, 'invalid_request');
});

t.run();
