import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser, makeAccount } from '../helpers/fixtures.js';
import { joinTeam, keyWith } from './support.js';
import { enableChallenges } from '../helpers/operator.js';

const t = suite('PATCH /accounts/{id}');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });
const req: TestApp['request'] = (method, path, options = {}) => app.request(method, path, { version: headVersion(), ...options });

const patch = (token: string, id: string, body: unknown) => req('PATCH', `/accounts/${id}`, { token, body });
const updatedEvents = (id: string) => app.db('events').where({ type: 'account.updated', account_id: id }).orderBy('created_at');

t('changes only the fields sent', async () => {
  const o = await makeOwner(app.db, { title: 'Before', country: 'US', email: 'old@shop.test', metadata: { keep: 'me' } });
  const before = (await req('GET', `/accounts/${o.accountId}`, { token: o.key })).body.updated_at as string;
  await new Promise((resolve) => setTimeout(resolve, 5)); // updated_at has millisecond precision
  const res = await patch(o.key, o.accountId, { title: 'After' });
  assert.is(res.status, 200);
  assert.is(res.body.title, 'After');
  assert.is(res.body.route, o.account.route); // the slug is stable
  assert.is(res.body.country, 'US');
  assert.is(res.body.email, 'old@shop.test');
  assert.equal(res.body.metadata, { keep: 'me' });
  assert.ok(Date.parse(res.body.updated_at) > Date.parse(before), `${res.body.updated_at} after ${before}`);
  const stored = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(stored.title, 'After');
  assert.is(stored.country, 'US');
});

t('every writable field can be set, and the nullable ones cleared', async () => {
  const o = await makeOwner(app.db);
  const address = { line1: '1 Rue de Rivoli', line2: null, city: 'Paris', state: null, postal_code: '75001', country: 'FR' };
  const res = await patch(o.key, o.accountId, {
    email: 'new@shop.test', logo_url: 'https://cdn.example.com/logo.png', country: 'FR', send_customer_emails: true,
    three_d_secure_policy: 'mandate_if_required', tax_remitted_by: 'platform', tax_type: 'exclusive', product_tax_code_id: 'txcd_99',
    business_address: address, tax_identifiers: [{ type: 'eu_vat', value: 'FR123' }],
  });
  assert.is(res.status, 200);
  assert.is(res.body.email, 'new@shop.test');
  assert.is(res.body.logo_url, 'https://cdn.example.com/logo.png');
  assert.is(res.body.country, 'FR');
  assert.is(res.body.send_customer_emails, true);
  assert.is(res.body.three_d_secure_policy, 'mandate_if_required');
  assert.is(res.body.tax_remitted_by, 'platform');
  assert.is(res.body.tax_type, 'exclusive');
  assert.is(res.body.product_tax_code_id, 'txcd_99');
  assert.equal(res.body.business_address, address);
  assert.equal(res.body.tax_identifiers, [{ type: 'eu_vat', value: 'FR123' }]);
  const cleared = await patch(o.key, o.accountId, {
    logo_url: null, tax_remitted_by: null, tax_type: null, product_tax_code_id: null, business_address: null, tax_identifiers: [],
  });
  assert.is(cleared.body.logo_url, null);
  assert.is(cleared.body.tax_remitted_by, null);
  assert.is(cleared.body.tax_type, null);
  assert.is(cleared.body.product_tax_code_id, null);
  assert.is(cleared.body.business_address, null);
  assert.equal(cleared.body.tax_identifiers, []);
  assert.is(cleared.body.email, 'new@shop.test');
  const fetched = await req('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.equal(fetched.body.tax_identifiers, []);
});

t('metadata merges key by key; null removes a key; an empty string is kept', async () => {
  const o = await makeOwner(app.db, { metadata: { a: '1', b: '2' } });
  const res = await patch(o.key, o.accountId, { metadata: { b: null, c: 3, d: '' } });
  assert.is(res.status, 200);
  assert.equal(res.body.metadata, { a: '1', c: 3, d: '' });
  const unchanged = await patch(o.key, o.accountId, { metadata: {} });
  assert.equal(unchanged.body.metadata, { a: '1', c: 3, d: '' });
  const tooMany = await patch(o.key, o.accountId, { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) });
  assert.is(tooMany.status, 400);
  assert.is(tooMany.body.error.param, 'metadata');
});

t('changing metadata.external_id to one a sibling uses is a 409; clearing it frees it', async () => {
  const p = await makeOwner(app.db);
  const a = await makeAccount(app.db, { parentId: p.accountId, metadata: { external_id: 'x' } });
  const b = await makeAccount(app.db, { parentId: p.accountId, metadata: { external_id: 'y' } });
  const clash = await patch(p.key, b.id, { metadata: { external_id: 'x' } });
  assert.is(clash.status, 409);
  assert.is(clash.body.error.type, 'conflict');
  assert.is(clash.body.error.param, 'metadata.external_id');
  assert.match(clash.body.error.message, a.id);
  assert.equal((await app.db('accounts').where({ id: b.id }).first()).metadata, { external_id: 'y' });
  const cleared = await patch(p.key, a.id, { metadata: { external_id: null } });
  assert.is(cleared.status, 200);
  assert.equal(cleared.body.metadata, {});
  assert.is((await app.db('accounts').where({ id: a.id }).first()).external_id, null);
  const taken = await patch(p.key, b.id, { metadata: { external_id: 'x' } });
  assert.is(taken.status, 200);
  assert.is((await app.db('accounts').where({ id: b.id }).first()).external_id, 'x');
  const create = await req('POST', '/accounts', { token: p.key, body: { email: 'n@x.test', metadata: { external_id: 'x' } } });
  assert.is(create.status, 409);
});

t('the external id check is race-safe: a sibling committing the same id first makes the update a 409', async () => {
  const p = await makeOwner(app.db);
  const b = await makeAccount(app.db, { parentId: p.accountId });
  const trx = await app.db.transaction();
  try {
    await makeAccount(trx, { parentId: p.accountId, metadata: { external_id: 'racing' } });
    const pending = patch(p.key, b.id, { metadata: { external_id: 'racing' } });
    await new Promise((r) => setTimeout(r, 200)); // the update passes its check and waits on the unique index
    await trx.commit();
    const res = await pending;
    assert.is(res.status, 409);
    assert.is(res.body.error.param, 'metadata.external_id');
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
  assert.is((await app.db('accounts').where({ id: b.id }).first()).external_id, null);
});

t('business_type, industry_type and industry_group are read-only (400 naming the field)', async () => {
  const o = await makeOwner(app.db);
  for (const [field, value] of [['business_type', 'software'], ['industry_type', 'gaming'], ['industry_group', 'retail']]) {
    const res = await patch(o.key, o.accountId, { [field]: value });
    assert.is(res.status, 400, field);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, field);
  }
});

t('ill-formed fields are 400s naming the field', async () => {
  const o = await makeOwner(app.db);
  const cases: [Record<string, unknown>, string][] = [
    [{ title: '' }, 'title'],
    [{ country: 'fr' }, 'country'],
    [{ logo_url: 'not a url' }, 'logo_url'],
    [{ three_d_secure_policy: 'always' }, 'three_d_secure_policy'],
    [{ business_address: { city: 'Paris', postal_code: '1', country: 'FR' } }, 'business_address.line1'],
    [{ tax_identifiers: Array.from({ length: 11 }, () => ({ type: 't', value: 'v' })) }, 'tax_identifiers'],
    [{ send_customer_emails: 'yes' }, 'send_customer_emails'],
    [{ title: null }, 'title'],
  ];
  for (const [body, param] of cases) {
    const res = await patch(o.key, o.accountId, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
});

t('mandate_challenge is refused until enabled for the account or its platform', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const refused = await patch(p.key, child.id, { three_d_secure_policy: 'mandate_challenge' });
  assert.is(refused.status, 400);
  assert.is(refused.body.error.param, 'three_d_secure_policy');
  assert.is((await app.db('accounts').where({ id: child.id }).first()).three_d_secure_policy, 'frictionless_if_required');
  await enableChallenges(app.db, p.accountId);
  const viaPlatform = await patch(p.key, child.id, { three_d_secure_policy: 'mandate_challenge' });
  assert.is(viaPlatform.status, 200);
  assert.is(viaPlatform.body.three_d_secure_policy, 'mandate_challenge');
  const own = await makeOwner(app.db);
  await enableChallenges(app.db, own.accountId);
  const self = await patch(own.key, own.accountId, { three_d_secure_policy: 'mandate_challenge' });
  assert.is(self.status, 200);
});

// --- access ----------------------------------------------------------------------------------------------------

t('the runtime\'s account checks: another account is 404, a key without company:update is 403', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const other = await patch(a.key, b.accountId, { title: 'Hijack' });
  assert.is(other.status, 404);
  assert.is(other.body.error.type, 'not_found');
  const missing = await patch(a.key, 'biz_doesnotexist', { title: 'x' });
  assert.is(missing.status, 404);
  const readOnly = await keyWith(app.db, a.accountId, ['company:basic:read', 'company:balance:read']);
  const denied = await patch(readOnly, a.accountId, { title: 'Nope' });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  assert.is((await app.db('accounts').where({ id: a.accountId }).first()).title, a.account.title);
  const none = await req('PATCH', `/accounts/${a.accountId}`, { body: { title: 'x' } });
  assert.is(none.status, 401);
});

t('a platform key updates its connected accounts; user tokens need a role with company:update', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const viaParent = await patch(p.key, child.id, { title: 'Renamed Child' });
  assert.is(viaParent.status, 200);
  assert.is(viaParent.body.parent_account.id, p.accountId);
  const admin = await makeUser(app.db);
  const viewer = await makeUser(app.db);
  await joinTeam(app, p.accountId, admin, 'admin');
  await joinTeam(app, p.accountId, viewer, 'viewer');
  assert.is((await patch(admin.token, p.accountId, { title: 'By Admin' })).status, 200);
  assert.is((await patch(admin.token, child.id, { title: 'Child By Admin' })).status, 200);
  assert.is((await patch(viewer.token, p.accountId, { title: 'By Viewer' })).status, 403);
  const stranger = await makeUser(app.db);
  assert.is((await patch(stranger.token, p.accountId, { title: 'By Stranger' })).status, 404);
  assert.is((await patch(p.token, p.accountId, { title: 'By Owner' })).body.title, 'By Owner');
});

// --- events ----------------------------------------------------------------------------------------------------

t('an update emits account.updated with the new account; a no-op emits nothing and keeps updated_at', async () => {
  const o = await makeOwner(app.db, { title: 'Evented' });
  const before = await app.db('accounts').where({ id: o.accountId }).first();
  const empty = await patch(o.key, o.accountId, {});
  assert.is(empty.status, 200);
  assert.is(empty.body.title, 'Evented');
  const same = await patch(o.key, o.accountId, { title: 'Evented' });
  assert.is(same.body.updated_at, before.updated_at);
  assert.is((await updatedEvents(o.accountId)).length, 0);
  const changed = await patch(o.key, o.accountId, { title: 'Evented Again', send_customer_emails: true });
  const events = await updatedEvents(o.accountId);
  assert.is(events.length, 1);
  assert.is(events[0].data.id, o.accountId);
  assert.is(events[0].data.title, 'Evented Again');
  assert.is(events[0].data.send_customer_emails, true);
  assert.is(changed.body.title, 'Evented Again');
});

t('a rejected update leaves no event and no change', async () => {
  const p = await makeOwner(app.db);
  await makeAccount(app.db, { parentId: p.accountId, metadata: { external_id: 'taken' } });
  const b = await makeAccount(app.db, { parentId: p.accountId, title: 'Bee' });
  const res = await patch(p.key, b.id, { title: 'Should Not Stick', metadata: { external_id: 'taken' } });
  assert.is(res.status, 409);
  assert.is((await app.db('accounts').where({ id: b.id }).first()).title, 'Bee');
  assert.is((await updatedEvents(b.id)).length, 0);
});

t.run();
