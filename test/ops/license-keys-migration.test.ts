// migrations/520_license_keys_at_rest.ts on a database written before it (its down(): license keys in the clear in
// memberships and in membership events, as the code before stored them, plus a key written the old way by hand):
// every key is sealed and hashed, events lose it, and every key handed out still finds its membership.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { hashSecret } from '../../runtime/credentials.js';
import { isSealed, unseal } from '../../runtime/sealed-secrets.js';
import { makeMembership } from '../memberships/fixtures.js';
import { down, up } from '../../migrations/520_license_keys_at_rest.js';

const t = suite('license keys at rest: the migration');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body, version: headVersion() });
const columns = async () => (await app.db.raw(`select column_name from information_schema.columns
  where table_schema = current_schema() and table_name = 'memberships' and column_name like 'license_key%' order by 1`)).rows
  .map((r: { column_name: string }) => r.column_name);

t('keys stored in the clear before it are sealed and hashed, events lose them, and each key still finds its membership', async () => {
  const seller = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const licensed = await makeMembership(app, seller.accountId, buyer.id, { includesLicense: true });
  const unlicensed = await makeMembership(app, seller.accountId, buyer.id);
  assert.is(unlicensed.licenseKey, null);
  assert.is((await call('PATCH', `/memberships/${licensed.id}`, seller.key, { metadata: { seat: 'a' } })).status, 200);

  await down(app.db);
  // The database as the code before wrote it: the key in the clear in the row and in each event.
  assert.equal(await columns(), ['license_key']);
  assert.is((await app.db('memberships').where({ id: licensed.id }).first('license_key')).license_key, licensed.licenseKey);
  const eventKeys = async () => (await app.db('events').whereRaw(`data ->> 'id' = ?`, [licensed.id]).orderBy('created_at'))
    .map((e) => [e.type, e.data.license_key]);
  assert.equal(await eventKeys(), [['membership.activated', licensed.licenseKey], ['membership.updated', licensed.licenseKey]]);
  const handWritten = 'AAAAA-BBBBB-CCCCC-DDDDD';
  // The clear-text column exists only before migration 520 (down() put it back): no product path writes it any more,
  // so the old shape of a row is written as the code before the migration wrote it.
  await app.db('memberships').where({ id: unlicensed.id }).update({ license_key: handWritten }); // sql-state-write: the pre-migration row shape (clear-text column) that no product path writes any more

  await up(app.db);

  assert.equal(await columns(), ['license_key_hash', 'license_key_sealed']);
  const stored = await app.db('memberships').where({ id: licensed.id }).first('license_key_sealed', 'license_key_hash');
  assert.ok(isSealed(stored.license_key_sealed));
  assert.is(unseal(stored.license_key_sealed), licensed.licenseKey);
  assert.is(stored.license_key_hash, hashSecret(licensed.licenseKey!));
  assert.equal(await eventKeys(), [['membership.activated', null], ['membership.updated', null]]);
  for (const [key, id] of [[licensed.licenseKey!, licensed.id], [handWritten, unlicensed.id]]) {
    const read = await call('GET', `/memberships/${key}`, seller.key);
    assert.is(read.status, 200, JSON.stringify(read.body));
    assert.is(read.body.id, id, 'a key handed out before finds its membership');
    assert.is(read.body.license_key, key);
  }
  const index = (await app.db.raw(`select indexdef from pg_indexes where tablename = 'memberships' and indexdef like '%license_key_hash%'`)).rows;
  assert.ok(index.some((i: { indexdef: string }) => i.indexdef.startsWith('CREATE UNIQUE INDEX')), 'found on a unique index');

  await up(app.db);
  assert.is((await app.db('memberships').where({ id: licensed.id }).first('license_key_sealed')).license_key_sealed,
    stored.license_key_sealed, 'run again, nothing changes');
});

t.run();
