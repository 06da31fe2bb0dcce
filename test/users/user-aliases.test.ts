// A user path id may be the user's id, their username or `me` (the official client: "by user_ tag, username, or
// 'me'"), on every /users/{id} operation, at the latest version and at the client's default pin; over HTTP and
// through the official client @whop/sdk.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { LATEST, PIN, raw, rejects, sdk } from '../sdk/sdk-helpers.js';

const t = suite('users: a path id may be a username or me');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db);
});
t.after(async () => { await app.close(); });

const username = async (userId: string) => (await app.db('users').where({ id: userId }).first('username')).username as string;

for (const version of [LATEST, PIN]) {
  t(`${version}: GET /users/me is the token's user, with their e-mail; a username (any case) is that user`, async () => {
    const me = await app.request('GET', '/users/me', { token: o.token, version });
    assert.is(me.status, 200, JSON.stringify(me.body));
    assert.is(me.body.id, o.owner.id);
    assert.is(me.body.email, `${await username(o.owner.id)}@example.com`);
    const name = await username(o.owner.id);
    for (const given of [name, name.toUpperCase()]) {
      const byName = await app.request('GET', `/users/${given}`, { token: o.key, version });
      assert.is(byName.status, 200, JSON.stringify(byName.body));
      assert.is(byName.body.id, o.owner.id);
      assert.is(byName.body.email, null);
    }
    const byId = await app.request('GET', `/users/${o.owner.id}`, { token: o.key, version });
    assert.is(byId.body.id, o.owner.id);
  });

  t(`${version}: me with an API key is a 400 naming id; an unknown username is a 404 naming it`, async () => {
    const me = await app.request('GET', '/users/me', { token: o.key, version });
    assert.is(me.status, 400);
    assert.is(me.body.error.param, 'id');
    assert.match(me.body.error.message, /user token/);
    const access = await app.request('GET', `/users/me/access/${o.accountId}`, { token: o.key, version });
    assert.is(access.status, 400);
    assert.is(access.body.error.param, 'id');
    const unknown = await app.request('GET', '/users/nobody_by_that_name', { token: o.key, version });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error.param, 'id');
    assert.match(unknown.body.error.message, /nobody_by_that_name/);
  });

  t(`${version}: GET /users/{id}/access/{resource_id} by me and by username`, async () => {
    const mine = await app.request('GET', `/users/me/access/${o.accountId}`, { token: o.token, version });
    assert.is(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body, { has_access: true, access_level: 'admin' });
    const stranger = await makeUser(app.db);
    const theirs = await app.request('GET', `/users/${await username(stranger.id)}/access/${o.accountId}`, { token: o.key, version });
    assert.is(theirs.status, 200, JSON.stringify(theirs.body));
    assert.equal(theirs.body, { has_access: false, access_level: 'no_access' });
  });

  t(`${version}: PATCH /users/me and PATCH /users/<own username> change the token's user; another's username is 403`, async () => {
    const u = await makeUser(app.db);
    const patched = await app.request('PATCH', '/users/me', { token: u.token, version, body: { name: `Me at ${version}` } });
    assert.is(patched.status, 200, JSON.stringify(patched.body));
    assert.is(patched.body.id, u.id);
    assert.is(patched.body.name, `Me at ${version}`);
    const byName = await app.request('PATCH', `/users/${await username(u.id)}`, { token: u.token, version, body: { bio: 'by name' } });
    assert.is(byName.status, 200, JSON.stringify(byName.body));
    assert.is(byName.body.bio, 'by name');
    const other = await app.request('PATCH', `/users/${await username(o.owner.id)}`, { token: u.token, version, body: { bio: 'no' } });
    assert.is(other.status, 403);
  });

  t(`${version}: GET /users/{id}/recommend_actions by me, own id and own username; another's is 403`, async () => {
    const u = await makeUser(app.db);
    for (const id of ['me', u.id, (await username(u.id)).toUpperCase()]) {
      const res = await app.request('GET', `/users/${id}/recommend_actions`, { token: u.token, version });
      assert.is(res.status, 200, `${id}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.data.some((a: { action: string }) => a.action === 'create_business'));
    }
    const other = await app.request('GET', `/users/${await username(o.owner.id)}/recommend_actions`, { token: u.token, version });
    assert.is(other.status, 403);
  });

  t(`${version}: the official client: users.retrieve('me') and by username, checkAccess by username, updateMe`, async () => {
    const user = sdk(app, o.token, { version });
    const me = await user.users.retrieve('me');
    assert.is(me.id, o.owner.id);
    const name = await username(o.owner.id);
    const key = sdk(app, o.key, { version });
    assert.is((await key.users.retrieve(name)).id, o.owner.id);
    const access = await key.users.checkAccess(o.accountId, { id: name });
    assert.equal(raw(access), { has_access: true, access_level: 'admin' });
    const updated = await user.users.updateMe({ name: `Client ${version}` });
    assert.is(updated.id, o.owner.id);
    assert.is(updated.name, `Client ${version}`);
    const err = await rejects(key.users.retrieve('me'), BadRequestError, 400);
    assert.is(raw(err.error).error.param, 'id');
    await rejects(key.users.retrieve('nobody_by_that_name'), NotFoundError, 404);
  });
}

t.run();
