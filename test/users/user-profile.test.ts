import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';

const t = suite('GET and PATCH /users/{id}');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('retrieve: another user sees the public profile without the e-mail', async () => {
  const alice = await makeUser(app.db, 'alice_pub');
  const bob = await makeUser(app.db);
  const profile = await call('PATCH', `/users/${alice.id}`, {
    token: alice.token, body: { bio: 'Makes things', city: 'Lisbon', country: 'PT', profile_picture_url: 'https://cdn.example.com/a.png' },
  });
  assert.is(profile.status, 200, JSON.stringify(profile.body));
  const res = await call('GET', `/users/${alice.id}`, { token: bob.token });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(),
    ['balance', 'bio', 'city', 'country', 'created_at', 'email', 'id', 'name', 'profile_picture', 'username']);
  assert.is(res.body.balance, null);
  assert.is(res.body.id, alice.id);
  assert.is(res.body.username, 'alice_pub');
  assert.is(res.body.name, 'alice_pub');
  assert.is(res.body.bio, 'Makes things');
  assert.is(res.body.city, 'Lisbon');
  assert.is(res.body.country, 'PT');
  assert.is(res.body.profile_picture, 'https://cdn.example.com/a.png');
  assert.is(res.body.email, null);
});

t('retrieve: the user themself sees their e-mail', async () => {
  const alice = await makeUser(app.db, 'alice_self');
  const res = await call('GET', `/users/${alice.id}`, { token: alice.token });
  assert.is(res.status, 200);
  assert.is(res.body.email, 'alice_self@example.com');
});

t('retrieve: an API key may read any profile, without the e-mail', async () => {
  const o = await makeOwner(app.db);
  const res = await call('GET', `/users/${o.owner.id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.owner.id);
  assert.is(res.body.email, null);
});

t('retrieve: an unknown user is 404 naming id', async () => {
  const u = await makeUser(app.db);
  const res = await call('GET', '/users/user_doesnotexist', { token: u.token });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'id');
});

t('retrieve: no credentials is 401', async () => {
  const res = await call('GET', '/users/user_x');
  assert.is(res.status, 401);
  assert.is(res.body.error.type, 'authentication_required');
});

t('retrieve: an API key without user:read is 403', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const res = await call('GET', `/users/${o.owner.id}`, { token: key.secret });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
});

t('update: the user changes only the fields sent, and may clear optional ones', async () => {
  const u = await makeUser(app.db, 'carol_up');
  assert.is((await call('PATCH', `/users/${u.id}`, { token: u.token, body: { city: 'Porto', bio: 'old bio' } })).status, 200);
  const res = await call('PATCH', `/users/${u.id}`, {
    token: u.token,
    body: { name: 'Carol C', bio: null, username: 'carol_c', profile_picture_url: 'https://img.example.com/c.jpg', country: 'DE' },
  });
  assert.is(res.status, 200);
  assert.is(res.body.name, 'Carol C');
  assert.is(res.body.bio, null);
  assert.is(res.body.username, 'carol_c');
  assert.is(res.body.profile_picture, 'https://img.example.com/c.jpg');
  assert.is(res.body.country, 'DE');
  assert.is(res.body.city, 'Porto');
  assert.is(res.body.email, 'carol_up@example.com');
  const stored = await app.db('users').where({ id: u.id }).first();
  assert.is(stored.username, 'carol_c');
  assert.is(stored.bio, null);
  assert.is(stored.profile_picture_url, 'https://img.example.com/c.jpg');
});

t('update: an empty body returns the profile unchanged', async () => {
  const u = await makeUser(app.db, 'dan_same');
  const res = await call('PATCH', `/users/${u.id}`, { token: u.token, body: {} });
  assert.is(res.status, 200);
  assert.is(res.body.username, 'dan_same');
});

t('update: a taken username is 409 naming username', async () => {
  await makeUser(app.db, 'taken_name');
  const u = await makeUser(app.db);
  const res = await call('PATCH', `/users/${u.id}`, { token: u.token, body: { username: 'taken_name' } });
  assert.is(res.status, 409);
  assert.is(res.body.error.type, 'conflict');
  assert.is(res.body.error.param, 'username');
  const stored = await app.db('users').where({ id: u.id }).first('username');
  assert.is.not(stored.username, 'taken_name');
});

t('update: keeping one\'s own username is not a conflict', async () => {
  const u = await makeUser(app.db, 'erin_keep');
  const res = await call('PATCH', `/users/${u.id}`, { token: u.token, body: { username: 'erin_keep', city: 'Oslo' } });
  assert.is(res.status, 200);
  assert.is(res.body.city, 'Oslo');
});

t('update: an ill-formed username, country or unknown field is 400 naming it', async () => {
  const u = await makeUser(app.db);
  for (const [body, param] of [
    [{ username: 'Has-Caps' }, 'username'],
    [{ username: 'ab' }, 'username'],
    [{ username: 'a'.repeat(31) }, 'username'],
    [{ country: 'portugal' }, 'country'],
    [{ profile_picture_url: 'not a url' }, 'profile_picture_url'],
    [{ email: 'x@example.com' }, 'email'],
    [{ name: '' }, 'name'],
  ] as const) {
    const res = await call('PATCH', `/users/${u.id}`, { token: u.token, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, param);
  }
});

t('update: another user is 403 and nothing changes', async () => {
  const a = await makeUser(app.db, 'frank_target');
  const b = await makeUser(app.db);
  const res = await call('PATCH', `/users/${a.id}`, { token: b.token, body: { name: 'Hijacked' } });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  const stored = await app.db('users').where({ id: a.id }).first('name');
  assert.is(stored.name, 'frank_target');
});

t('update: an API key is 403, even the owner\'s account key', async () => {
  const o = await makeOwner(app.db);
  const res = await call('PATCH', `/users/${o.owner.id}`, { token: o.key, body: { name: 'X' } });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
});

t('update: an unknown user is 404; no credentials is 401', async () => {
  const u = await makeUser(app.db);
  const res = await call('PATCH', '/users/user_nope', { token: u.token, body: { name: 'X' } });
  assert.is(res.status, 404);
  assert.is(res.body.error.param, 'id');
  const anon = await call('PATCH', `/users/${u.id}`, { body: { name: 'X' } });
  assert.is(anon.status, 401);
});

t.run();
