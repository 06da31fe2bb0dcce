import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { insertAccount } from '../../handlers/accounts/account-service.js';
import { deployBlueprint } from '../../handlers/accounts/account-sites.js';
import { ApiError } from '../../runtime/errors.js';
import { keyWith } from './support.js';

const t = suite('POST /accounts');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });
// Tests speak the head version; user tokens carry no pin and would otherwise get the oldest shape.
const req: TestApp['request'] = (method, path, options = {}) => app.request(method, path, { version: headVersion(), ...options });

const deployJobs = (siteId?: string) => {
  const q = app.db('graphile_worker.jobs').where({ task_identifier: 'deploy_blueprint' });
  return siteId ? q.where({ key: `deploy_blueprint:${siteId}` }) : q;
};

// --- user tokens -----------------------------------------------------------------------------------------------

t('a user token creates a business account it owns, defaulting email and title to the user\'s e-mail', async () => {
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', { token: user.token, body: {} });
  assert.is(res.status, 201);
  assert.match(res.body.id, /^biz_/);
  assert.is(res.body.email, user.user.email);
  assert.is(res.body.title, user.user.email);
  assert.is(res.body.parent_account, null);
  assert.is(res.body.country, null);
  assert.is(res.body.status, 'active');
  assert.is(res.body.send_customer_emails, false);
  assert.equal(res.body.metadata, {});
  assert.is(res.body.rewards.length, 3); // the owner holds balance access on the new account
  const member = await app.db('team_members').where({ account_id: res.body.id }).first();
  assert.is(member.user_id, user.id);
  assert.is(member.role, 'owner');
  assert.is(member.status, 'active');
  const fetched = await req('GET', `/accounts/${res.body.id}`, { token: user.token });
  assert.is(fetched.status, 200);
});

t('a user token takes the title, email, country, metadata and send_customer_emails it is given', async () => {
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', {
    token: user.token,
    body: { title: 'Acme Tools', email: 'billing@acme.test', country: 'DE', metadata: { tier: 'gold', seats: 3 }, send_customer_emails: true },
  });
  assert.is(res.status, 201);
  assert.is(res.body.title, 'Acme Tools');
  assert.is(res.body.route, 'acme-tools');
  assert.is(res.body.email, 'billing@acme.test');
  assert.is(res.body.country, 'DE');
  assert.equal(res.body.metadata, { tier: 'gold', seats: 3 });
  assert.is(res.body.send_customer_emails, true);
});

t('the title defaults to metadata.external_id before the e-mail', async () => {
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', { token: user.token, body: { metadata: { external_id: 'store-991' } } });
  assert.is(res.body.title, 'store-991');
});

t('metadata keys sent with null are dropped', async () => {
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', { token: user.token, body: { title: 'N', metadata: { a: 'x', b: null } } });
  assert.equal(res.body.metadata, { a: 'x' });
});

t('two accounts with the same title get distinct routes', async () => {
  const user = await makeUser(app.db);
  const a = await req('POST', '/accounts', { token: user.token, body: { title: 'Same Name' } });
  const b = await req('POST', '/accounts', { token: user.token, body: { title: 'Same Name' } });
  assert.is(a.status, 201);
  assert.is(b.status, 201);
  assert.is(a.body.route, 'same-name');
  assert.match(b.body.route, /^same-name-[a-z0-9]{6}$/);
});

// --- API keys --------------------------------------------------------------------------------------------------

t('an API key creates a connected account under its own account, country defaulting to the parent\'s', async () => {
  const p = await makeOwner(app.db, { title: 'Platform', country: 'FR' });
  const res = await req('POST', '/accounts', { token: p.key, body: { email: 'seller@shop.test' } });
  assert.is(res.status, 201);
  assert.equal(res.body.parent_account, { id: p.accountId, title: 'Platform', route: p.account.route, logo_url: null });
  assert.is(res.body.country, 'FR');
  assert.is(res.body.email, 'seller@shop.test');
  assert.is(res.body.title, 'seller@shop.test');
  assert.is(await app.db('team_members').where({ account_id: res.body.id }).first(), undefined);
  const explicit = await req('POST', '/accounts', { token: p.key, body: { email: 'b@shop.test', country: 'IT', title: 'Bottega' } });
  assert.is(explicit.body.country, 'IT');
  assert.is(explicit.body.title, 'Bottega');
  const listed = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: p.accountId } });
  assert.equal(listed.body.data.map((a: { id: string }) => a.id).sort(), [res.body.id, explicit.body.id].sort());
});

t('an API key request without email is a 400 naming email', async () => {
  const p = await makeOwner(app.db);
  const res = await req('POST', '/accounts', { token: p.key, body: { title: 'No Mail' } });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'email');
});

t('an API key without company:create_child is a 403', async () => {
  const p = await makeOwner(app.db);
  const key = await keyWith(app.db, p.accountId, ['company:balance:read', 'company:create']);
  const res = await req('POST', '/accounts', { token: key, body: { email: 'x@shop.test' } });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'company:create_child');
  assert.is(await app.db('accounts').where({ parent_id: p.accountId }).first(), undefined);
  const allowed = await keyWith(app.db, p.accountId, ['company:create_child']);
  const ok = await req('POST', '/accounts', { token: allowed, body: { email: 'x@shop.test' } });
  assert.is(ok.status, 201);
  assert.is(ok.body.rewards.length, 0); // this key holds neither balance nor stats read access
});

t('a client id cannot create accounts (403); no credentials is a 401', async () => {
  const p = await makeOwner(app.db);
  const client = await req('POST', '/accounts', { token: p.account.client_id, body: { email: 'x@shop.test' } });
  assert.is(client.status, 403);
  const none = await req('POST', '/accounts', { body: {} });
  assert.is(none.status, 401);
});

// --- conflicts -------------------------------------------------------------------------------------------------

t('a second connected account with the same metadata.external_id under the same parent is a 409', async () => {
  const p = await makeOwner(app.db);
  const body = { email: 'a@shop.test', metadata: { external_id: 'ext-1' } };
  const first = await req('POST', '/accounts', { token: p.key, body });
  assert.is(first.status, 201);
  assert.is(first.body.title, 'ext-1');
  const again = await req('POST', '/accounts', { token: p.key, body: { ...body, email: 'b@shop.test' } });
  assert.is(again.status, 409);
  assert.is(again.body.error.type, 'conflict');
  assert.is(again.body.error.param, 'metadata.external_id');
  assert.match(again.body.error.message, first.body.id);
  const otherParent = await makeOwner(app.db);
  const elsewhere = await req('POST', '/accounts', { token: otherParent.key, body });
  assert.is(elsewhere.status, 201);
  const user = await makeUser(app.db);
  const business1 = await req('POST', '/accounts', { token: user.token, body: { metadata: { external_id: 'ext-1' } } });
  const business2 = await req('POST', '/accounts', { token: user.token, body: { metadata: { external_id: 'ext-1' } } });
  assert.equal([business1.status, business2.status], [201, 201]);
});

t('the external id check is race-safe: a concurrent insert that commits first makes the other a 409', async () => {
  const p = await makeOwner(app.db);
  const trx1 = await app.db.transaction();
  const trx2 = await app.db.transaction();
  try {
    await insertAccount(trx1, { title: 'one', parentId: p.accountId, metadata: { external_id: 'race' } });
    const second = insertAccount(trx2, { title: 'two', parentId: p.accountId, metadata: { external_id: 'race' } })
      .then(() => null, (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100)); // let the second insert reach the index and wait on the first
    await trx1.commit();
    const error = await second;
    assert.ok(error instanceof ApiError, String(error));
    assert.is((error as ApiError).status, 409);
    assert.is((error as ApiError).param, 'metadata.external_id');
  } finally {
    if (!trx1.isCompleted()) await trx1.rollback();
    await trx2.rollback();
  }
  assert.is(await app.db('accounts').where({ parent_id: p.accountId, external_id: 'race' }).count({ n: '*' }).first().then((r) => Number(r!.n)), 1);
});

t('concurrent creates with the same external id: one 201, one 409', async () => {
  const p = await makeOwner(app.db);
  const body = { email: 'c@shop.test', metadata: { external_id: 'concurrent' } };
  const results = await Promise.all([1, 2, 3].map(() => req('POST', '/accounts', { token: p.key, body })));
  assert.equal(results.map((r) => r.status).sort(), [201, 409, 409]);
});

// --- rejected fields -------------------------------------------------------------------------------------------

t('tax fields are refused at creation with a 400 naming the field', async () => {
  const user = await makeUser(app.db);
  const cases: Record<string, unknown> = {
    tax_remitted_by: 'platform',
    tax_type: 'inclusive',
    product_tax_code_id: 'txcd_1',
    business_address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' },
    tax_identifiers: [{ type: 'eu_vat', value: 'FR123' }],
  };
  for (const [field, value] of Object.entries(cases)) {
    const res = await req('POST', '/accounts', { token: user.token, body: { title: 'Taxed', [field]: value } });
    assert.is(res.status, 400, field);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, field);
  }
  assert.is(await app.db('accounts').where({ title: 'Taxed' }).first(), undefined);
});

t('ill-formed fields are 400s naming the field', async () => {
  const user = await makeUser(app.db);
  const cases: [Record<string, unknown>, string][] = [
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(101) }, 'title'],
    [{ country: 'usa' }, 'country'],
    [{ email: 'not-an-email' }, 'email'],
    [{ metadata: 'text' }, 'metadata'],
    [{ metadata: { nested: { a: 1 } } }, 'metadata.nested'],
    [{ blueprint_id: 'site_123' }, 'blueprint_id'],
    [{ send_customer_emails: 'yes' }, 'send_customer_emails'],
    [{ industry_type: 'gaming' }, 'industry_type'],
  ];
  for (const [body, param] of cases) {
    const res = await req('POST', '/accounts', { token: user.token, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
});

// --- affiliate code --------------------------------------------------------------------------------------------

t('affiliate_code names a partner by username, case-insensitively; an unknown one is a 400', async () => {
  const partner = await makeUser(app.db, 'PartnerPat');
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', { token: user.token, body: { title: 'Referred', affiliate_code: 'PARTNERPAT' } });
  assert.is(res.status, 201);
  assert.is(res.body.affiliate_code, partner.user.username);
  const none = await req('POST', '/accounts', { token: user.token, body: { title: 'Direct', affiliate_code: null } });
  assert.is(none.body.affiliate_code, null);
  const unknown = await req('POST', '/accounts', { token: user.token, body: { title: 'Ghost', affiliate_code: 'nobody_here' } });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.param, 'affiliate_code');
  assert.is(await app.db('accounts').where({ title: 'Ghost' }).first(), undefined);
});

// --- blueprint -------------------------------------------------------------------------------------------------

/** A hosted app of an account the user owns: a blueprint the user can see. */
async function blueprint() {
  const o = await makeOwner(app.db);
  const res = await req('POST', '/apps', { token: o.key, body: { account_id: o.accountId, name: 'Shop template', route: `tpl-${o.accountId.slice(4).toLowerCase()}` } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return { owner: o, appId: res.body.id as string };
}

t('blueprint_id records a queued site, counts the use on the app and queues its deployment in the same transaction', async () => {
  const { owner, appId } = await blueprint();
  const res = await req('POST', '/accounts', { token: owner.token, body: { title: 'Site Co', blueprint_id: appId } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.blueprint_id, appId);
  const site = await app.db('account_sites').where({ account_id: res.body.id }).first();
  assert.is(site.blueprint_id, appId);
  assert.is(site.status, 'queued');
  assert.is((await app.db('apps').where({ id: appId }).first()).template_usage, 1);
  const jobs = await deployJobs(site.id);
  assert.is(jobs.length, 1);
  const [payload] = await app.db.raw(
    `select j.payload from graphile_worker._private_jobs j where j.key = ?`, [`deploy_blueprint:${site.id}`],
  ).then((r) => r.rows);
  assert.equal(payload.payload, { site_id: site.id });
});

t('the deploy_blueprint task fails a site whose blueprint has no production web build, once (idempotent)', async () => {
  const { owner, appId } = await blueprint();
  const res = await req('POST', '/accounts', { token: owner.token, body: { title: 'Deploy Co', blueprint_id: appId } });
  const site = await app.db('account_sites').where({ account_id: res.body.id }).first();
  const task = deployBlueprint(app.db);
  await task({ site_id: site.id }, {} as never);
  const failed = await app.db('account_sites').where({ id: site.id }).first();
  assert.equal([failed.status, failed.failure_reason, failed.deployed_at], ['failed', `The blueprint ${appId} has no production web build`, null]);
  await task({ site_id: site.id }, {} as never);
  assert.equal(await app.db('account_sites').where({ id: site.id }).first(), failed);
  let threw = false;
  try { await task({}, {} as never); } catch { threw = true; }
  assert.ok(threw, 'a job without site_id fails loudly');
});

t('a blueprint must be a hosted app the caller can see: else 404 or 400 naming blueprint_id, and nothing is written', async () => {
  const user = await makeUser(app.db);
  const { appId } = await blueprint();
  const unseen = await req('POST', '/accounts', { token: user.token, body: { title: 'Unseen', blueprint_id: appId } });
  assert.equal([unseen.status, unseen.body.error.param], [404, 'blueprint_id']);
  const missing = await req('POST', '/accounts', { token: user.token, body: { title: 'Unseen', blueprint_id: 'app_Missing' } });
  assert.equal([missing.status, missing.body.error.param], [404, 'blueprint_id']);
  const o = await makeOwner(app.db);
  const integration = await req('POST', '/apps', { token: o.key, body: { account_id: o.accountId, name: 'Sync' } });
  const refused = await req('POST', '/accounts', { token: o.token, body: { title: 'Unseen', blueprint_id: integration.body.id } });
  assert.equal([refused.status, refused.body.error.param], [400, 'blueprint_id']);
  assert.is(await app.db('accounts').where({ title: 'Unseen' }).first(), undefined);
  assert.equal((await app.db('apps').whereIn('id', [appId, integration.body.id]).select('template_usage')).map((r) => r.template_usage), [0, 0]);
});

t('a rejected create queues no deployment, records no site and counts no use', async () => {
  const { owner, appId } = await blueprint();
  await req('POST', '/accounts', { token: owner.key, body: { email: 'a@x.test', metadata: { external_id: 'dup' } } });
  const before = (await deployJobs()).length;
  const res = await req('POST', '/accounts', {
    token: owner.key, body: { email: 'b@x.test', metadata: { external_id: 'dup' }, blueprint_id: appId },
  });
  assert.is(res.status, 409);
  assert.is((await deployJobs()).length, before);
  assert.is(await app.db('account_sites').where({ blueprint_id: appId }).first(), undefined);
  assert.is((await app.db('apps').where({ id: appId }).first()).template_usage, 0);
});

t('without blueprint_id no site is recorded', async () => {
  const user = await makeUser(app.db);
  const res = await req('POST', '/accounts', { token: user.token, body: { title: 'Plain' } });
  assert.is(res.body.blueprint_id, null);
  assert.is(await app.db('account_sites').where({ account_id: res.body.id }).first(), undefined);
});

// --- events and idempotency ------------------------------------------------------------------------------------

t('creating emits account.created with the account', async () => {
  const p = await makeOwner(app.db);
  const res = await req('POST', '/accounts', { token: p.key, body: { email: 'ev@shop.test' } });
  const events = await app.db('events').where({ type: 'account.created', account_id: res.body.id });
  assert.is(events.length, 1);
  assert.is(events[0].data.id, res.body.id);
  assert.is(events[0].data.parent_account.id, p.accountId);
});

t('the same Idempotency-Key replays the first response and creates one account', async () => {
  const p = await makeOwner(app.db);
  const body = { email: 'idem@shop.test', title: 'Idem' };
  const first = await req('POST', '/accounts', { token: p.key, body, idempotencyKey: 'create-idem-1' });
  const second = await req('POST', '/accounts', { token: p.key, body, idempotencyKey: 'create-idem-1' });
  assert.is(first.status, 201);
  assert.is(second.status, 201);
  assert.is(second.body.id, first.body.id);
  assert.is(first.headers.get('idempotent-replayed'), null);
  assert.is(second.headers.get('idempotent-replayed'), 'true');
  assert.is((await app.db('accounts').where({ parent_id: p.accountId, title: 'Idem' })).length, 1);
  const different = await req('POST', '/accounts', { token: p.key, body: { ...body, title: 'Other' }, idempotencyKey: 'create-idem-1' });
  assert.is(different.status, 400);
  assert.is(different.body.error.type, 'idempotency_error');
});

t.run();

const w = suite('POST /accounts with the worker running');
let live: TestApp;
w.before(async () => { live = await startTestApp({ worker: true }); });
w.after(async () => { await live.close(); });

// The full deployment from an approved build runs in test/apps/blueprint-sites.test.ts.
w('a queued blueprint deployment leaves queued in the background (failed: the blueprint has no build)', async () => {
  const o = await makeOwner(live.db);
  const created = await live.request('POST', '/apps', { token: o.key, version: headVersion(),
    body: { account_id: o.accountId, name: 'Live template', route: `live-${o.accountId.slice(4).toLowerCase()}` } });
  const res = await live.request('POST', '/accounts', { token: o.token, version: headVersion(), body: { title: 'Live Site', blueprint_id: created.body.id } });
  assert.is(res.status, 201);
  let status = 'queued';
  for (let i = 0; i < 100 && status === 'queued'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await live.db('account_sites').where({ account_id: res.body.id }).first()).status;
  }
  assert.is(status, 'failed');
});

w.run();
