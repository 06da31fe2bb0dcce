// FILE_STORAGE chooses the store at composition: PostgreSQL unless told otherwise; a value naming no store, or an S3
// store without its bucket, stops the process at start with an error saying what to set.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseFileStorage } from '../../wiring/file-storage-setting.js';
import { LocalDiskStorage } from '../../runtime/file-storage.js';
import { PostgresStorage } from '../../runtime/file-storage-postgres.js';
import { S3Storage } from '../../runtime/file-storage-s3.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const t = suite('wiring: FILE_STORAGE');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('unset or empty: the PostgreSQL store of the database asked about', () => {
  for (const env of [{}, { FILE_STORAGE: '' }, { FILE_STORAGE: 'postgres' }]) {
    assert.instance(chooseFileStorage(env)(app.db), PostgresStorage);
  }
});

t('disk and s3 by name', () => {
  assert.instance(chooseFileStorage({ FILE_STORAGE: 'disk' })(app.db), LocalDiskStorage);
  assert.instance(chooseFileStorage({ FILE_STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9' })(app.db), S3Storage);
});

t('an unknown value, or S3 settings missing or malformed: an error naming what to set', () => {
  assert.throws(() => chooseFileStorage({ FILE_STORAGE: 'nfs' }), (e: Error) => e.message === 'FILE_STORAGE=nfs names no file store; known: postgres, s3, disk');
  assert.throws(() => chooseFileStorage({ FILE_STORAGE: 'toString' }), /names no file store/);
  assert.throws(() => chooseFileStorage({ FILE_STORAGE: 's3' }), /needs S3_BUCKET/);
  assert.throws(() => chooseFileStorage({ FILE_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' }), /both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
  assert.throws(() => chooseFileStorage({ FILE_STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }), /S3_FORCE_PATH_STYLE=yes/);
});

t.run();
