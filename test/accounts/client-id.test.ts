// The client id on the Account resource: shown to the account's own API keys and to its owners and admins, null to
// everyone else who can read the account; the id shown is the one a frontend authenticates with.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner } from '../helpers/fixtures.js';
import { addMember } from '../auth/team.js';

const HEAD = '2026-09-06';
const t = suite('accounts: client_id visibility');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const stored = async (id: string) => (await app.db('accounts').where({ id }).first('client_id')).client_id as string;
const read = (token: string, id: string, version = HEAD) => app.request('GET', `/accounts/${id}`, { token, version });

t('the account\'s own API key sees it, on retrieve, /accounts/me and lists, and it authenticates a frontend', async () => {
  const o = await makeOwner(app.db);
  const clientId = await stored(o.accountId);
  assert.is((await read(o.key, o.accountId)).body.client_id, clientId);
  assert.is((await app.request('GET', '/accounts/me', { token: o.key, version: HEAD })).body.client_id, clientId);
  const list = await app.request('GET', '/accounts', { token: o.key, version: HEAD });
  assert.is(list.body.data.find((a: any) => a.id === o.accountId).client_id, clientId);
  // Older versions gain the field too: an additive change.
  assert.is((await read(o.key, o.accountId, '2025-01-01')).body.client_id, clientId);
  const token = await app.request('POST', '/confirmation_tokens', {
    token: clientId, version: HEAD, body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } },
  });
  assert.is(token.status, 201);
});

t('owners and admins see it; other roles get null', async () => {
  const o = await makeOwner(app.db);
  const clientId = await stored(o.accountId);
  assert.is((await read(o.token, o.accountId)).body.client_id, clientId, 'owner');
  const admin = await addMember(app, o.accountId, 'admin');
  assert.is((await read(admin.token, o.accountId)).body.client_id, clientId, 'admin');
  const viewer = await addMember(app, o.accountId, 'viewer');
  const seen = await read(viewer.token, o.accountId);
  assert.is(seen.status, 200);
  assert.is(seen.body.client_id, null, 'viewer');
  const viewerKey = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await read(viewerKey.secret, o.accountId)).body.client_id, clientId, 'any key of the account is the account\'s own');
});

t('a parent platform\'s key reads its connected account without the connected account\'s client id', async () => {
  const platform = await makeOwner(app.db);
  const connected = await makeAccount(app.db, { parentId: platform.accountId });
  const res = await read(platform.key, connected.id);
  assert.is(res.status, 200);
  assert.is(res.body.client_id, null);
  assert.is((await read(platform.key, platform.accountId)).body.client_id, await stored(platform.accountId));
});

t.run();
