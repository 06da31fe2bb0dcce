import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalDatabase, publishUrl, withdrawUrl } from '../../bin/local-database.js';

// A data directory whose postmaster.pid names a live process (this one), as when `npm start` holds the lock.
function lockedDataDir() {
  const root = mkdtempSync(join(tmpdir(), 'cli-db-'));
  const dataDir = join(root, 'pg');
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'postmaster.pid'), `${process.pid}\n`);
  return { root, dataDir, urlFile: join(root, 'pg.url') };
}

const t = suite('the CLI finds the database npm start uses');
const dirs: string[] = [];
t.after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

t('DATABASE_URL is used as it is', async () => {
  const db = await openLocalDatabase({ databaseUrl: 'postgres://u@db.invalid:5432/app' });
  assert.is(db.url, 'postgres://u@db.invalid:5432/app');
  assert.is(db.source, 'DATABASE_URL');
});

t('the URL a running server published is used instead of starting a second embedded server', async () => {
  const d = lockedDataDir();
  dirs.push(d.root);
  publishUrl(process.env.TEST_ADMIN_URL!, d.urlFile);
  const db = await openLocalDatabase({ dataDir: d.dataDir, urlFile: d.urlFile });
  assert.is(db.url, process.env.TEST_ADMIN_URL);
  assert.is(db.source, 'running server');
  withdrawUrl(d.urlFile);
  await assert.not.throws(() => withdrawUrl(d.urlFile));
});

t('a locked data directory without a reachable published URL is a clear error', async () => {
  const d = lockedDataDir();
  dirs.push(d.root);
  publishUrl('postgres://postgres:embedded@127.0.0.1:1/commerce', d.urlFile); // left by a server that is gone
  try {
    await openLocalDatabase({ dataDir: d.dataDir, urlFile: d.urlFile });
    assert.unreachable('should have thrown');
  } catch (e) {
    assert.instance(e, Error);
    assert.match((e as Error).message, `The embedded PostgreSQL under ${d.dataDir} is locked by another process (postgres pid ${process.pid})`);
    assert.match((e as Error).message, 'set DATABASE_URL');
  }
});

t.run();
