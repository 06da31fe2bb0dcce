// A process cache's hit is answered as it is, without a promise (runtime/shared-cache.ts, runtime/eventually.ts): a
// request reads several entries, and a promise with its await per read was most of what a hit cost.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TopicCache } from '../../runtime/shared-cache.js';
import { andThen } from '../../runtime/eventually.js';

const t = suite('runtime: a cache hit without a promise');

t('a miss loads in a promise and keeps the value; the next read answers it at once, without loading', async () => {
  const cache = new TopicCache(() => true);
  let loads = 0;
  const loader = async () => ({ n: ++loads });
  const first = cache.load('k', loader);
  assert.instance(first, Promise);
  assert.equal(await first, { n: 1 });
  const second = cache.load('k', loader);
  assert.not.instance(second, Promise);
  assert.equal(second, { n: 1 });
  assert.is(loads, 1);
});

t('what `keep` refuses is not kept, and an invalidation during a load keeps the loaded value out', async () => {
  const cache = new TopicCache(() => true);
  let loads = 0;
  const unknown = async () => { loads++; return null; };
  await cache.load('unknown', unknown, Boolean);
  assert.instance(cache.load('unknown', unknown, Boolean), Promise);
  assert.is(loads, 2);
  const loading = cache.load('raced', async () => 'old');
  cache.clear(); // a notification arrives while the load runs: its value may predate the change
  assert.is(await loading, 'old');
  assert.instance(cache.load('raced', async () => 'new'), Promise);
});

t('without a listener nothing is kept: every read loads', async () => {
  const cache = new TopicCache(() => false);
  let loads = 0;
  await cache.load('k', async () => ++loads);
  assert.is(await cache.load('k', async () => ++loads), 2);
});

t('andThen applies at once to a value at hand, and after it arrives to a promise; a rejection passes through', async () => {
  assert.is(andThen(2, (n) => n * 3), 6);
  const later = andThen(Promise.resolve(2), (n) => n * 3);
  assert.instance(later, Promise);
  assert.is(await later, 6);
  const failed = andThen(Promise.reject(new Error('lost')), () => 1);
  try {
    await failed;
    assert.unreachable('the rejection should pass through');
  } catch (e) {
    assert.is((e as Error).message, 'lost');
  }
});

t.run();
