import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { assertError, send } from './envelope.js';
import { startEchoServer } from './echo-operation.js';

const t = suite('runtime: query strings');
let app: TestApp;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let key: string;

t.before(async () => {
  app = await startTestApp();
  echo = await startEchoServer(app.db);
  key = (await makeOwner(app.db)).key;
});
t.after(async () => {
  await echo.close();
  await app.close();
});

/** GET with a raw query string, exactly as written (no re-encoding). */
const get = (base: string, path: string, query: string) =>
  send(`${base}${path}${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
const echoed = async (query: string) => {
  const res = await get(echo.base, '/test_echo/e1', query);
  assert.is(res.status, 200, `${query}: ${res.text}`);
  return res.body.query as Record<string, unknown>;
};

// GET /accounts: only the validator's verdict is asserted (status 200 vs 400), not the list's contents.

t('GET /accounts: an empty value means "not given" and is not a 400', async () => {
  for (const q of ['first=', 'first=&after=', 'status=', 'direction=&order=', 'query=']) {
    const res = await get(app.url, '/accounts', q);
    assert.is(res.status, 200, `${q}: ${res.text}`);
  }
});

t('GET /accounts: first=abc is a 400 naming first', async () => {
  const res = await get(app.url, '/accounts', 'first=abc');
  assertError(res, 400, 'invalid_request', 'first');
  assert.match(res.body.error.message, "query parameter 'first' must be an integer");
});

t('GET /accounts: first above the maximum page size, or below 1, is a 400 naming first', async () => {
  const over = await get(app.url, '/accounts', 'first=51');
  assertError(over, 400, 'invalid_request', 'first');
  assert.match(over.body.error.message, 'at most 50');
  const zero = await get(app.url, '/accounts', 'first=0');
  assertError(zero, 400, 'invalid_request', 'first');
  assert.match(zero.body.error.message, 'at least 1');
  const ok = await get(app.url, '/accounts', 'first=50');
  assert.is(ok.status, 200, ok.text);
});

t('GET /accounts: an unknown query parameter is a 400 naming it', async () => {
  const res = await get(app.url, '/accounts', 'first=2&colour=red');
  assertError(res, 400, 'invalid_request', 'colour');
  assert.match(res.body.error.message, "Unknown query parameter 'colour'");
});

t('GET /accounts: a value outside an enum is a 400 listing the allowed values', async () => {
  const res = await get(app.url, '/accounts', 'direction=sideways');
  assertError(res, 400, 'invalid_request', 'direction');
  assert.match(res.body.error.message, 'asc, desc');
});

t('GET /accounts: a scalar parameter given twice is a 400, not a silent pick', async () => {
  const res = await get(app.url, '/accounts', 'status=active&status=suspended');
  assertError(res, 400, 'invalid_request', 'status');
});

t('GET /accounts/{id}: an unknown query parameter on an operation without any is a 400', async () => {
  const o = await makeOwner(app.db);
  const res = await send(`${app.url}/accounts/${o.accountId}?expand=balance`, { headers: { authorization: `Bearer ${o.key}` } });
  assertError(res, 400, 'invalid_request', 'expand');
});

t('arrays: key[]=a&key[]=b and repeated keys both give a list', async () => {
  assert.equal((await echoed('tags[]=a&tags[]=b')).tags, ['a', 'b']);
  assert.equal((await echoed('tags=a&tags=b')).tags, ['a', 'b']);
  assert.equal((await echoed('tags[]=a&tags=b')).tags, ['a', 'b']);
});

t('arrays: a single value, bracketed or not, is a list of one', async () => {
  assert.equal((await echoed('tags[]=solo')).tags, ['solo']);
  assert.equal((await echoed('tags=solo')).tags, ['solo']);
});

t('arrays: percent-encoded brackets and values are decoded', async () => {
  assert.equal((await echoed('tags%5B%5D=a%20b&tags%5B%5D=c%26d')).tags, ['a b', 'c&d']);
  assert.equal((await echoed('note=caf%C3%A9+au+lait')).note, 'café au lait');
});

t('arrays: empty items are dropped and an all-empty array is not given', async () => {
  assert.equal((await echoed('tags[]=&tags[]=x&tags[]=')).tags, ['x']);
  const q = await echoed('tags[]=&n=');
  assert.equal(q, {});
});

t('arrays: items are coerced to their type, and a bad item names its index', async () => {
  assert.equal((await echoed('nums[]=1&nums[]=20')).nums, [1, 20]);
  const res = await get(echo.base, '/test_echo/e1', 'nums[]=1&nums[]=x');
  assertError(res, 400, 'invalid_request', 'nums[1]');
});

t('arrays: more items than max_items is a 400 naming the parameter', async () => {
  const res = await get(echo.base, '/test_echo/e1', 'tags[]=1&tags[]=2&tags[]=3&tags[]=4&tags[]=5&tags[]=6');
  assertError(res, 400, 'invalid_request', 'tags');
  assert.match(res.body.error.message, 'at most 5 items');
});

t('scalars: integers and booleans are coerced; a scalar given as an array of two is a 400', async () => {
  assert.equal(await echoed('n=3&flag=true&kind=b'), { n: 3, flag: true, kind: 'b' });
  assert.equal(await echoed('flag=false'), { flag: false });
  assertError(await get(echo.base, '/test_echo/e1', 'n=1&n=2'), 400, 'invalid_request', 'n');
  assertError(await get(echo.base, '/test_echo/e1', 'n[]=1&n[]=2'), 400, 'invalid_request', 'n');
  assertError(await get(echo.base, '/test_echo/e1', 'flag=yes'), 400, 'invalid_request', 'flag');
  assertError(await get(echo.base, '/test_echo/e1', 'n=2.5'), 400, 'invalid_request', 'n');
});

t('unknown keys, including bracketed and odd ones, are a 400 naming them', async () => {
  assertError(await get(echo.base, '/test_echo/e1', 'zzz=1'), 400, 'invalid_request', 'zzz');
  assertError(await get(echo.base, '/test_echo/e1', 'other[]=1'), 400, 'invalid_request', 'other');
  assertError(await get(echo.base, '/test_echo/e1', 'tags[x]=1'), 400, 'invalid_request', 'tags[x]');
});

t('a key with an empty value is not given even when unknown (an empty value means "not given")', async () => {
  assert.equal(await echoed('zzz='), {});
});

t('a NUL character in a query value or a path id is a 400 naming it, not a database error', async () => {
  assertError(await get(app.url, '/accounts', 'query=ab%00cd'), 400, 'invalid_request', 'query');
  assertError(await get(echo.base, '/test_echo/e1', 'tags[]=ok&tags[]=b%00d'), 400, 'invalid_request', 'tags[1]');
  assertError(await get(app.url, '/accounts/biz_abc%00', ''), 400, 'invalid_request', 'id');
});

t('malformed percent-encoding is a 4xx envelope, never a 5xx', async () => {
  for (const q of ['note=%', 'note=%zz', 'note=%E0%A4%A', '%=1', 'tags[]=%ff']) {
    const res = await get(echo.base, '/test_echo/e1', q);
    assert.ok(res.status === 200 || res.status === 400, `${q}: ${res.status} ${res.text}`);
    if (res.status === 400) assertError(res, 400, 'invalid_request');
  }
});

t.run();
