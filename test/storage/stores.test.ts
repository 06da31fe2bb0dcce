// The file store's contract (runtime/file-storage.ts), run against each store: the local disk, PostgreSQL (the
// default) and S3 (on s3rver; skipped, saying why, when no S3-compatible server can start). Whole objects appear only
// when complete; a refused or broken write leaves nothing; reads of a missing object fail with ENOENT.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { LocalDiskStorage, StorageLimitExceeded, type FileStorage } from '../../runtime/file-storage.js';
import { CHUNK_BYTES, postgresStorageFor } from '../../runtime/file-storage-postgres.js';
import { S3Storage } from '../../runtime/file-storage-s3.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { skip } from '../helpers/skip.js';
import { startTestS3, type TestS3 } from './s3-server.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function errorOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** A source that yields some bytes, then fails (a client that went away mid-upload). */
async function* broken(): AsyncGenerator<Buffer> {
  yield randomBytes(CHUNK_BYTES + 10);
  throw new Error('connection reset');
}

interface Subject {
  store: FileStorage;
  /** whether anything of an unfinished write is left in the store's own terms (temporary files, keyless rows) */
  leftovers(): Promise<number>;
}

let counter = 0;
const fresh = () => `obj${++counter}-${randomBytes(4).toString('hex')}`;

function contract(name: string, open: () => Promise<Subject | string>, close: () => Promise<void>): void {
  const t = suite(`file store: ${name}`);
  let s: Subject | undefined;
  let unavailable: string | undefined;
  t.before(async () => {
    const opened = await open();
    if (typeof opened === 'string') unavailable = opened;
    else s = opened;
  });
  t.after(close);
  /** Each test runs on the store, or skips saying why it cannot. */
  const test = (title: string, body: (s: Subject) => Promise<void>) => t(title, async () => {
    if (!s) return skip(`${name}: ${unavailable}`);
    await body(s);
  });

  test('put and read back, in chunks that cross the store\'s own (and an empty object)', async ({ store }) => {
    const key = fresh();
    const bytes = randomBytes(2 * CHUNK_BYTES + 12345);
    const cut = Math.floor(CHUNK_BYTES * 0.7);
    const pieces = [bytes.subarray(0, cut), bytes.subarray(cut, CHUNK_BYTES + 1), bytes.subarray(CHUNK_BYTES + 1)];
    assert.is(await store.put(key, Readable.from(pieces), bytes.length), bytes.length);
    assert.ok((await bytesOf(store.read(key))).equals(bytes));
    assert.is(await store.size(key), bytes.length);
    assert.ok((await store.list()).includes(key));
    const empty = fresh();
    assert.is(await store.put(empty, Readable.from([]), 10), 0);
    assert.is(await store.size(empty), 0);
    assert.is((await bytesOf(store.read(empty))).length, 0);
  });

  test('text sources, and a put replacing what the key held', async ({ store }) => {
    const key = fresh();
    await store.put(key, (async function* () { yield 'first '; yield 'version'; })(), 100);
    await store.put(key, (async function* () { yield 'second'; })(), 100);
    assert.is((await bytesOf(store.read(key))).toString(), 'second');
    assert.is(await store.size(key), 6);
  });

  test('past the limit: StorageLimitExceeded, nothing stored, nothing left over', async (subject) => {
    const key = fresh();
    const before = await subject.store.list();
    const e = await errorOf(subject.store.put(key, Readable.from([randomBytes(CHUNK_BYTES), randomBytes(CHUNK_BYTES)]), CHUNK_BYTES + 5));
    assert.instance(e, StorageLimitExceeded);
    assert.is(await subject.store.size(key), null);
    assert.equal(await subject.store.list(), before);
    assert.is(await subject.leftovers(), 0);
  });

  test('a source that breaks midway: the error, nothing stored, nothing left over', async (subject) => {
    const key = fresh();
    const e = await errorOf(subject.store.put(key, broken(), Number.MAX_SAFE_INTEGER));
    assert.match(String(e?.message), /connection reset/);
    assert.is(await subject.store.size(key), null);
    assert.is(await subject.leftovers(), 0);
  });

  test('concat: the parts in order, the parts kept', async ({ store }) => {
    const parts = [randomBytes(CHUNK_BYTES + 7), Buffer.from('middle'), Buffer.alloc(0), randomBytes(3 * 1024)];
    const keys = [];
    for (const part of parts) {
      const key = fresh();
      await store.put(key, Readable.from([part]), part.length);
      keys.push(key);
    }
    const whole = fresh();
    assert.is(await store.concat(keys, whole), Buffer.concat(parts).length);
    assert.ok((await bytesOf(store.read(whole))).equals(Buffer.concat(parts)));
    assert.is(await store.size(whole), Buffer.concat(parts).length);
    for (const key of keys) assert.ok((await store.size(key)) !== null);
  });

  test('concat of parts S3 can copy itself (5 MiB and more each but the last)', async ({ store }) => {
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(5 * 1024 * 1024 + 1), Buffer.from('tail')];
    const keys = [];
    for (const part of parts) {
      const key = fresh();
      await store.put(key, Readable.from([part]), part.length);
      keys.push(key);
    }
    const whole = fresh();
    await store.concat(keys, whole);
    assert.ok((await bytesOf(store.read(whole))).equals(Buffer.concat(parts)));
  });

  test('concat with a part missing: ENOENT, no object', async (subject) => {
    const present = fresh();
    await subject.store.put(present, Readable.from(['here']), 10);
    const whole = fresh();
    const e = await errorOf(subject.store.concat([present, fresh()], whole));
    assert.is(e?.code, 'ENOENT');
    assert.is(await subject.store.size(whole), null);
    assert.is(await subject.leftovers(), 0);
  });

  test('a missing object: read fails with ENOENT, size is null, remove is fine', async ({ store }) => {
    const key = fresh();
    assert.is((await errorOf(bytesOf(store.read(key))))?.code, 'ENOENT');
    assert.is(await store.size(key), null);
    await store.remove(key);
    await store.put(key, Readable.from(['x']), 1);
    await store.remove(key);
    assert.is(await store.size(key), null);
    assert.not.ok((await store.list()).includes(key));
  });

  t.run();
}

// The local disk, in a directory of its own.
let diskDir = '';
contract('disk', async () => {
  diskDir = mkdtempSync(join(tmpdir(), 'store-disk-'));
  const store = new LocalDiskStorage(diskDir);
  return { store, leftovers: async () => readdirSync(diskDir).filter((f) => f.endsWith('.tmp')).length };
}, async () => rmSync(diskDir, { recursive: true, force: true }));

// PostgreSQL: the test's own database, through the store FILE_STORAGE=postgres makes.
let app: TestApp | undefined;
contract('postgres', async () => {
  app = await startTestApp();
  const db = app.db;
  return {
    store: postgresStorageFor(db),
    leftovers: async () => Number((await db('stored_objects').whereNull('key').count('* as n').first())!.n),
  };
}, async () => { await app?.close(); });

// S3 on s3rver, when it starts.
let s3: TestS3 | undefined;
contract('s3', async () => {
  const started = await startTestS3();
  if ('unavailable' in started) return started.unavailable;
  s3 = started;
  const store = new S3Storage(s3.settings);
  // Upload aborts an unfinished multipart upload; a single PUT is all or nothing: nothing to count beyond list().
  return { store, leftovers: async () => 0 };
}, async () => { await s3?.close(); });
