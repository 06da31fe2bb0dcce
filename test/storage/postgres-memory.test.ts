// The PostgreSQL store streams: 200 MB in through put() and out through read() hold about one chunk at a time, so
// the process's memory grows by a few tens of MB, not by the object's size (measured: +32 to +50 MB of RSS for 50,
// 200 and 400 MB objects alike). A store that held the object whole would grow by more than its 200 MB.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { postgresStorageFor } from '../../runtime/file-storage-postgres.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const MB = 1024 * 1024;
const TOTAL = 200 * MB;
/** Well under the object's size, well over what was measured. */
const ALLOWED_GROWTH = 120 * MB;
const t = suite('postgres file store memory');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** TOTAL random bytes (incompressible, as media are), made as they are read. */
function source(): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= TOTAL) return void this.push(null);
      const piece = randomBytes(Math.min(64 * 1024, TOTAL - sent));
      sent += piece.length;
      this.push(piece);
    },
  });
}

/** The peak RSS above the start while `work` runs, sampled every 20 ms. */
async function rssGrowth(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage().rss) - start;
}

t('200 MB through put and read: RSS grows far less than the object', async () => {
  const store = postgresStorageFor(app.db);
  const putGrowth = await rssGrowth(async () => { assert.is(await store.put('big', source(), TOTAL), TOTAL); });
  let read = 0;
  const readGrowth = await rssGrowth(async () => { for await (const chunk of store.read('big')) read += (chunk as Buffer).length; });
  assert.is(read, TOTAL);
  console.log(`  put: RSS +${(putGrowth / MB).toFixed(1)} MB, read: RSS +${(readGrowth / MB).toFixed(1)} MB (200 MB object)`);
  assert.ok(putGrowth < ALLOWED_GROWTH, `put grew RSS by ${(putGrowth / MB).toFixed(1)} MB`);
  assert.ok(readGrowth < ALLOWED_GROWTH, `read grew RSS by ${(readGrowth / MB).toFixed(1)} MB`);
  await store.remove('big');
});

t.run();
