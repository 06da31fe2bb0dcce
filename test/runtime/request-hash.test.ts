// An Idempotency-Key's request is recognised by a hash of its operation, path and body with every object's keys
// sorted (runtime/idempotency.ts requestHash). The canonical text is written in one pass; it must be the text the
// earlier form gave (a sorted copy, then JSON.stringify), or a retry sent across a deploy would be refused as another
// request for 24 hours.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { canonicalJson, requestHash } from '../../runtime/idempotency.js';

const t = suite('runtime: the idempotency request hash');

/** The earlier form, kept here as the reference. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedCopy((value as Record<string, unknown>)[k])]));
  }
  return value;
}

// Names an object orders its own way (array indices first, ascending), beside ordinary ones.
const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '9', '10', '01', '-1', '4294967294', '4294967295', '1e3', 'a', 'B', '__proto__'));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 4 }, fc.constant(null), fc.boolean(), fc.double({ noNaN: false }), fc.integer(), fc.string(),
    fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(key, tie('value'), { maxKeys: 6 })),
})).value;

t('the canonical text is what JSON.stringify writes of a copy with sorted keys, for any JSON value', () => {
  fc.assert(fc.property(json, (value) => canonicalJson(value) === JSON.stringify(sortedCopy(value))), { numRuns: 2000 });
});

t('the hash is the earlier form\'s for a request body', () => {
  const body = { metadata: { 10: 'b', 9: 'a', z: [{ y: 1, x: null }] }, amount: 1.5, currency: 'usd', note: 'é "quoted"' };
  const earlier = createHash('sha256').update(JSON.stringify(['createPayment', sortedCopy({ id: 'pay_1' }), sortedCopy(body)])).digest('hex');
  assert.is(requestHash('createPayment', { id: 'pay_1' }, body), earlier);
  assert.is(requestHash('createPayment', {}, undefined), createHash('sha256').update('["createPayment",{},null]').digest('hex'));
  assert.is.not(requestHash('createPayment', {}, { a: 1, b: 2 }), requestHash('createPayment', {}, { a: 2, b: 1 }));
  assert.is(requestHash('createPayment', {}, { a: 1, b: 2 }), requestHash('createPayment', {}, { b: 2, a: 1 }));
});

t.run();
