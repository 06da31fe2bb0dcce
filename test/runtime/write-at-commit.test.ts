// Writes deferred to the COMMIT (outbox events, jobs: runtime/request-db.ts writeAtCommit): inside a request's
// transaction they wait for the COMMIT's round trip, with their values inlined as literals exactly; a rollback, or a
// rollback to the request's savepoint, takes them with it; outside a transaction they run at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { inTransaction, rollbackToSavepoint, withConnection, writeAtCommit } from '../../runtime/request-db.js';

const t = suite('runtime: writes sent with the COMMIT');
let app: TestApp;
t.before(async () => {
  app = await startTestApp();
  await app.db.raw('create table at_commit_probe (v text, n integer, at timestamptz)');
});
t.after(async () => { await app.close(); });

const INSERT = 'insert into at_commit_probe (v, n, at) values ($1, $2, $3::timestamptz)';
const rows = async () => (await app.db('at_commit_probe').select('v', 'n').orderBy('n')) as { v: string; n: number }[];
const clear = () => app.db('at_commit_probe').del();

t('in a transaction the write waits for the COMMIT, its values exactly as given', async () => {
  await clear();
  const awkward = "it's a \\ backslash, a ? mark, $2 and $1 in text, and ünïcödé";
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await writeAtCommit(trx, INSERT, [awkward, 1, new Date('2026-01-02T03:04:05.678Z')]);
    await writeAtCommit(trx, INSERT, [null, 2, null]);
    const seen = await trx.raw('select count(*)::int as n from at_commit_probe');
    assert.is(seen.rows[0].n, 0, 'not written before the COMMIT');
  }));
  assert.equal(await rows(), [{ v: awkward, n: 1 }, { v: null as unknown as string, n: 2 }]);
  const at = await app.db('at_commit_probe').where({ n: 1 }).first('at');
  assert.is(new Date(at.at).toISOString(), '2026-01-02T03:04:05.678Z');
});

t('a transaction that fails takes its deferred writes with it', async () => {
  await clear();
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await writeAtCommit(trx, INSERT, ['lost', 1, null]);
    throw new Error('refused');
  })).catch(() => {});
  assert.equal(await rows(), []);
  // The connection goes back clean: the next transaction on it commits only its own writes.
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => { await writeAtCommit(trx, INSERT, ['kept', 2, null]); }));
  assert.equal(await rows(), [{ v: 'kept', n: 2 }]);
});

t('rolling back to the request\'s savepoint drops the writes deferred after it; later ones commit', async () => {
  await clear();
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await writeAtCommit(trx, INSERT, ['undone', 1, null]);
    await rollbackToSavepoint(trx, 'request_start');
    await writeAtCommit(trx, INSERT, ['record of the refusal', 2, null]);
  }, ['SAVEPOINT request_start']));
  assert.equal(await rows(), [{ v: 'record of the refusal', n: 2 }]);
});

t('outside a transaction, and on a knex transaction, the write runs at once', async () => {
  await clear();
  await withConnection(app.db, async (db) => {
    await writeAtCommit(db, INSERT, ['at once', 1, null]);
    assert.equal(await rows(), [{ v: 'at once', n: 1 }]);
  });
  await app.db.transaction(async (trx) => {
    await writeAtCommit(trx, INSERT, ['in knex', 2, null]);
    assert.is(Number((await trx('at_commit_probe').count({ n: '*' }))[0].n), 2);
  });
});

t.run();
