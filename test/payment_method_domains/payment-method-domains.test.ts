// /payment_method_domains over HTTP: register, list, retrieve, delete, hostname rules, the sandbox's DNS proof and
// the verification job (queued by publish_proof, run here as the worker runs it, idempotent), 404/403.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { jobsOf, VERSION } from '../payments/payment-fixtures.js';
import { verifyPaymentMethodDomain, VERIFY_DOMAIN } from '../../handlers/payment_method_domains/verification.js';

const OLDER = '2026-07-20';
const t = suite('payment method domains');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const register = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/payment_method_domains', { token, version, body });
const publish = (token: string, id: string, body: Record<string, unknown> = {}) =>
  app.request('POST', `/sandbox/payment_method_domains/${id}/publish_proof`, { token, version: VERSION, body });

/** What the worker does with the queued check: one run of the task per queued job (and the queue is then empty). */
async function runQueuedCheck(id: string) {
  const jobs = await jobsOf(app, VERIFY_DOMAIN, id);
  assert.is(jobs.length, 1, 'one verification job queued');
  await verifyPaymentMethodDomain(app.db, id);
  await app.db('graphile_worker._private_jobs').whereIn('id', jobs.map((j) => j.id)).delete();
}

t('registering a hostname: pending, lower-cased, with the TXT record to publish; the proof verifies it', async () => {
  const o = await makeOwner(app.db);
  const res = await register(o.key, { account_id: o.accountId, domain: 'Pay.Example.COM' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const d = res.body;
  assert.match(d.id, /^pmd_/);
  assert.equal([d.account_id, d.domain, d.status, d.verified_at, d.verification.txt_record_name, d.verification.last_error],
    [o.accountId, 'pay.example.com', 'pending', null, '_commerce-pay-verification.pay.example.com', null]);
  assert.match(d.verification.txt_record_value, /^cpv_/);

  // Checked before anything is published: stays pending, saying why.
  await verifyPaymentMethodDomain(app.db, d.id);
  const unpublished = await app.request('GET', `/payment_method_domains/${d.id}`, { token: o.key, version: VERSION });
  assert.equal([unpublished.body.status, unpublished.body.verification.last_error],
    ['pending', 'No TXT record _commerce-pay-verification.pay.example.com was found']);

  const published = await publish(o.key, d.id);
  assert.equal([published.status, published.body.status], [200, 'pending']);
  const record = await app.db('sandbox_dns_txt_records').where({ name: d.verification.txt_record_name });
  assert.equal(record.map((r) => r.value), [d.verification.txt_record_value]);
  await runQueuedCheck(d.id);
  const verified = await app.request('GET', `/payment_method_domains/${d.id}`, { token: o.key, version: VERSION });
  assert.equal([verified.body.status, verified.body.verification.last_error], ['verified', null]);
  assert.ok(Date.parse(verified.body.verified_at) > 0);

  // The job run again, and publishing again once verified, change nothing.
  await verifyPaymentMethodDomain(app.db, d.id);
  const again = await publish(o.key, d.id);
  assert.equal([again.status, again.body.updated_at], [200, verified.body.updated_at]);
  assert.is((await jobsOf(app, VERIFY_DOMAIN, d.id)).length, 0);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [d.id]).orderBy('created_at').select('type');
  assert.equal(events.map((e) => e.type), ['payment_method_domain.created', 'payment_method_domain.verified']);
});

t('a wrong TXT value leaves it pending with the reason; the right one published beside it verifies it', async () => {
  const o = await makeOwner(app.db);
  const d = (await register(o.key, { account_id: o.accountId, domain: 'shop.example.org' })).body;
  assert.is((await publish(o.key, d.id, { value: 'not-the-token' })).status, 200);
  await runQueuedCheck(d.id);
  const wrong = await app.request('GET', `/payment_method_domains/${d.id}`, { token: o.key, version: VERSION });
  assert.equal([wrong.body.status, wrong.body.verification.last_error],
    ['pending', "The TXT record _commerce-pay-verification.shop.example.org does not hold this domain's verification token"]);
  await publish(o.key, d.id);
  await runQueuedCheck(d.id);
  const ok = await app.request('GET', `/payment_method_domains/${d.id}`, { token: o.key, version: VERSION });
  assert.is(ok.body.status, 'verified');
  const bad = await publish(o.key, d.id, { value: 'spaces are not allowed' });
  assert.equal([bad.status, bad.body.error.param], [400, 'value']);
});

t('two accounts may register the same hostname, each proving it with its own token', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const da = (await register(a.key, { account_id: a.accountId, domain: 'shared.example.net' })).body;
  const db = (await register(b.key, { account_id: b.accountId, domain: 'shared.example.net' })).body;
  assert.is.not(da.verification.txt_record_value, db.verification.txt_record_value);
  await publish(a.key, da.id);
  await runQueuedCheck(da.id);
  await verifyPaymentMethodDomain(app.db, db.id);
  assert.equal((await app.db('payment_method_domains').whereIn('id', [da.id, db.id]).orderBy('account_id')).map((r) => [r.id, r.status]).sort(),
    [[da.id, 'verified'], [db.id, 'pending']].sort());
});

t('bad hostnames are a 400 naming domain; a hostname registered twice a 409 naming domain; nothing written', async () => {
  const o = await makeOwner(app.db);
  for (const domain of ['https://pay.example.com', 'pay.example.com:443', 'pay.example.com/checkout', 'localhost', '192.168.0.1',
    'pay..example.com', '-pay.example.com', 'pay-.example.com', `${'a'.repeat(64)}.example.com`, 'pay.example.com.', '', 'pay example.com', 'päy.example.com']) {
    const res = await register(o.key, { account_id: o.accountId, domain });
    assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_request', 'domain'], domain);
  }
  assert.is((await register(o.key, { account_id: o.accountId, domain: `${'a'.repeat(250)}.com` })).body.error.param, 'domain');
  assert.is((await app.db('payment_method_domains').where({ account_id: o.accountId })).length, 0);
  assert.is((await register(o.key, { account_id: o.accountId, domain: 'checkout.example.com' })).status, 201);
  const dup = await register(o.key, { account_id: o.accountId, domain: 'CHECKOUT.example.com' });
  assert.equal([dup.status, dup.body.error.type, dup.body.error.param], [409, 'conflict', 'domain']);
  assert.is(dup.body.error.message, "This account already registered the domain 'checkout.example.com'");
});

t('a duplicate sent with an Idempotency-Key is a kept 409: replayed, nothing written, the event recorded once', async () => {
  const o = await makeOwner(app.db);
  assert.is((await register(o.key, { account_id: o.accountId, domain: 'shop.example.com' })).status, 201);
  const send = () => app.request('POST', '/payment_method_domains', { token: o.key, version: VERSION,
    headers: { 'Idempotency-Key': 'duplicate-domain' }, body: { account_id: o.accountId, domain: 'shop.example.com' } });
  const first = await send();
  const again = await send();
  assert.equal([first.status, first.body.error.param, again.status, again.headers.get('idempotent-replayed')], [409, 'domain', 409, 'true']);
  assert.is(again.body.error.message, first.body.error.message);
  assert.is((await app.db('payment_method_domains').where({ account_id: o.accountId })).length, 1);
  assert.is((await app.db('events').where({ account_id: o.accountId, type: 'payment_method_domain.created' })).length, 1);
});

t('list (newest first, by status), retrieve and delete; another account is a 404; without the scope a 403', async () => {
  const o = await makeOwner(app.db);
  const ids: string[] = [];
  for (const domain of ['a.example.com', 'b.example.com', 'c.example.com']) {
    ids.push((await register(o.key, { account_id: o.accountId, domain })).body.id);
  }
  await publish(o.key, ids[1]);
  await runQueuedCheck(ids[1]);
  const all = await app.request('GET', '/payment_method_domains', { token: o.key, version: VERSION, query: { account_id: o.accountId } });
  assert.equal(all.body.data.map((d: any) => d.id), [ids[2], ids[1], ids[0]]);
  const verified = await app.request('GET', '/payment_method_domains', { token: o.key, version: VERSION, query: { account_id: o.accountId, status: 'verified' } });
  assert.equal(verified.body.data.map((d: any) => d.domain), ['b.example.com']);
  const page = await app.request('GET', '/payment_method_domains', { token: o.key, version: OLDER, query: { first: 1 } });
  assert.equal([page.status, page.body.data.map((d: any) => d.id), page.body.page_info.has_next_page], [200, [ids[2]], true]);

  const other = await makeOwner(app.db);
  assert.is((await app.request('GET', `/payment_method_domains/${ids[0]}`, { token: other.key, version: VERSION })).status, 404);
  assert.is((await app.request('DELETE', `/payment_method_domains/${ids[0]}`, { token: other.key, version: VERSION })).status, 404);
  assert.is((await publish(other.key, ids[0])).status, 404);
  assert.is((await app.request('GET', '/payment_method_domains', { token: other.key, version: VERSION, query: { account_id: o.accountId } })).status, 404);
  assert.equal((await app.request('GET', '/payment_method_domains', { token: other.key, version: VERSION })).body.data, []);
  assert.is((await register(other.key, { account_id: o.accountId, domain: 'x.example.com' })).status, 404);

  const reader = (await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['payment_method_domain:read'] }] })).secret;
  assert.is((await app.request('GET', `/payment_method_domains/${ids[0]}`, { token: reader, version: VERSION })).status, 200);
  for (const res of [
    await app.request('DELETE', `/payment_method_domains/${ids[0]}`, { token: reader, version: VERSION }),
    await publish(reader, ids[0]),
    await register(reader, { account_id: o.accountId, domain: 'x.example.com' }),
  ]) assert.equal([res.status, res.body.error.type], [403, 'permission_denied']);
  const viewer = (await makeKey(app.db, { accountId: o.accountId, role: 'viewer' })).secret;
  assert.is((await app.request('GET', `/payment_method_domains/${ids[0]}`, { token: viewer, version: VERSION })).status, 403);

  const deleted = await app.request('DELETE', `/payment_method_domains/${ids[0]}`, { token: o.key, version: VERSION });
  assert.equal([deleted.status, deleted.body], [200, { id: ids[0], deleted: true }]);
  assert.is((await app.request('GET', `/payment_method_domains/${ids[0]}`, { token: o.key, version: VERSION })).status, 404);
  // The check of a deleted domain finds nothing to do.
  await verifyPaymentMethodDomain(app.db, ids[0]);
  assert.is((await register(o.key, { account_id: o.accountId, domain: 'a.example.com' })).status, 201);
});

t.run();
