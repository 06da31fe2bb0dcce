// client.accounts through the official client at its default pin (2026-07-20) and at the latest.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AuthenticationError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { LATEST, PIN, collectAll, countingFetch, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: accounts');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let other: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'SDK Shop' });
  other = await makeOwner(app.db, { title: 'Someone else' });
});
t.after(async () => { await app.close(); });

t('the client sends its default pin 2026-07-20 and a Bearer key; the server resolves that version', async () => {
  const counting = countingFetch();
  const client = sdk(app, o.key, { fetch: counting.fetch });
  const { data, response } = await client.accounts.retrieve(o.accountId).withResponse();
  assert.is(data.id, o.accountId);
  assert.is(counting.calls[0].headers.get('api-version-date'), PIN);
  assert.is(counting.calls[0].headers.get('authorization'), `Bearer ${o.key}`);
  assert.is(response.headers.get('api-version-date'), PIN);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  const latest = await sdk(app, o.key, { version: LATEST }).accounts.retrieve(o.accountId).withResponse();
  assert.is(latest.response.headers.get('api-version-date'), LATEST);
});

t('accounts.retrieve returns the account; another account is a NotFoundError with the error envelope', async () => {
  const client = sdk(app, o.key);
  const account = await client.accounts.retrieve(o.accountId);
  assert.is(account.id, o.accountId);
  assert.is(raw(account).title, 'SDK Shop');
  const err = await rejects(client.accounts.retrieve(other.accountId), NotFoundError, 404);
  assert.is(raw(err.error).error.type, 'not_found');
  assert.ok(err.headers.get('request-id'));
});

t('accounts.me returns the key\'s account at both versions', async () => {
  assert.is((await sdk(app, o.key).accounts.me()).id, o.accountId);
  assert.is((await sdk(app, o.key, { version: LATEST }).accounts.me()).id, o.accountId);
  assert.is((await sdk(app, other.key).accounts.me()).id, other.accountId);
});

t('accounts.list pages the visible accounts only, and auto-paginates', async () => {
  const client = sdk(app, o.key);
  const page = await client.accounts.list();
  assert.equal(page.data.map((a) => a.id), [o.accountId]);
  assert.is(raw(page.page_info).has_next_page, false);
  const all = await collectAll(client.accounts.list({ first: 1 }));
  assert.equal(all.map((a) => a.id), [o.accountId]);
});

t('an unknown key is an AuthenticationError 401', async () => {
  const err = await rejects(sdk(app, 'sk_not_a_real_key').accounts.me(), AuthenticationError, 401);
  assert.is(raw(err.error).error.type, 'authentication_required');
  assert.ok(raw(err.error).error.message);
});

t.run();
