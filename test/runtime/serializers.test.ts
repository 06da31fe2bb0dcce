// Responses are written by the compiled serialiser of their operation and version: the schema's fields only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { serializers } from '../../generated/serializers.js';
import { specData } from '../../generated/spec-data.js';

const t = suite('runtime: compiled response serialisers');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { metadata: { tier: 'gold', n: 3 } });
});
t.after(async () => { await app.close(); });

const HEAD = specData.versions[0];
const OLDEST = specData.versions[specData.versions.length - 1];

t('every operation with a response schema has a serialiser at every version it exists at', () => {
  assert.ok(Object.keys(serializers).length > 60);
  for (const version of [HEAD, OLDEST]) assert.type(serializers.retrieveAccount[version], 'function');
  assert.type(serializers.listPayments[HEAD], 'function');
});

t('a response is the serialiser\'s text: JSON, equal to the object it was given', async () => {
  for (const version of [HEAD, '2026-07-20', OLDEST]) {
    const res = await fetch(`${app.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.key}`, 'api-version-date': version } });
    assert.match(res.headers.get('content-type') ?? '', 'application/json');
    const text = await res.text();
    const body = JSON.parse(text);
    assert.is(serializers.retrieveAccount[version](body), text, version);
    assert.equal(JSON.parse(serializers.retrieveAccount[version](body)), JSON.parse(JSON.stringify(body)));
  }
});

t('a field outside the schema never reaches the client, at the top or nested; free-form metadata is kept whole', async () => {
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  const leaky = { ...res.body, secret_hash: 'deadbeef', balance: { ...res.body.balance, internal_note: 'x' } };
  const written = JSON.parse(serializers.retrieveAccount[HEAD](leaky));
  assert.not.ok('secret_hash' in written);
  assert.not.ok('internal_note' in written.balance);
  assert.equal(written, res.body);
  assert.equal(written.metadata, { tier: 'gold', n: 3 });
});

t('any string is written as JSON.stringify writes it: quotes, backslashes, control characters, lone surrogates', () => {
  fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) })), (title) => {
    const written = serializers.retrieveAccount[HEAD]({ id: 'acct_1', title });
    assert.is(written, JSON.stringify({ id: 'acct_1', title }));
  }), { numRuns: 2000 });
  for (const title of ['a"b', 'a\\b', 'line\nnext', '\u0001', '\u2028', '\ud800', '😀', '']) {
    assert.is(serializers.retrieveAccount[HEAD]({ id: 'acct_1', title }), JSON.stringify({ id: 'acct_1', title }));
  }
});

t('values of an unexpected type still give valid JSON (no field is invented or lost)', () => {
  const odd = serializers.retrieveAccount[HEAD]({ id: 42, title: null, metadata: undefined, created_at: new Date(0), business_type: ['x'] });
  assert.equal(JSON.parse(odd), { id: 42, title: null, created_at: '1970-01-01T00:00:00.000Z', business_type: ['x'] });
  assert.is(serializers.retrieveAccount[HEAD](null), 'null');
});

t.run();
