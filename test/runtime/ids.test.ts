// Ids, tokens and nonces from one pool of random bytes (runtime/ids.ts): bytes handed out never change when the pool
// is refilled, no two draws share bytes, and tokens are base62 of the length asked, each character about as likely.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newId, newRequestId, randomBytesFromPool, randomToken } from '../../runtime/ids.js';

const t = suite('runtime: ids from the random pool');

t('bytes handed out stay as they were across refills, and later draws are other bytes', () => {
  const first = randomBytesFromPool(12);
  const copy = Buffer.from(first);
  const later: Buffer[] = [];
  // Well past several 4 KiB refills.
  for (let i = 0; i < 2000; i++) later.push(randomBytesFromPool(12));
  assert.ok(first.equals(copy), 'a refill wrote over bytes already handed out');
  const seen = new Set([copy.toString('hex'), ...later.map((b) => b.toString('hex'))]);
  assert.is(seen.size, 2001, 'two draws gave the same 12 bytes');
});

t('a draw larger than the pool is its own', () => {
  const big = randomBytesFromPool(10_000);
  assert.is(big.length, 10_000);
  assert.is(randomBytesFromPool(5).length, 5);
});

t('tokens are base62 of the length asked; ids and request ids are unique', () => {
  for (const length of [1, 8, 16, 40, 300]) {
    const token = randomToken(length);
    assert.is(token.length, length);
    assert.match(token, /^[0-9A-Za-z]+$/);
  }
  const ids = new Set(Array.from({ length: 20_000 }, () => newId('pay_')));
  assert.is(ids.size, 20_000);
  const requests = new Set(Array.from({ length: 20_000 }, () => newRequestId()));
  assert.is(requests.size, 20_000);
  for (const id of requests) assert.match(id, /^req_[A-Za-z0-9_-]{16}$/);
});

t('every base62 character is drawn about equally often (bytes of 248 and more are drawn again)', () => {
  const counts = new Map<string, number>();
  const text = randomToken(620_000);
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  assert.is(counts.size, 62);
  // 10,000 expected each; a modulo bias (keeping bytes 248-255) would give the first eight characters 25% more than
  // the others.
  for (const [c, n] of counts) assert.ok(n > 9_400 && n < 10_600, `${c} drawn ${n} times of 620,000`);
});

t.run();
