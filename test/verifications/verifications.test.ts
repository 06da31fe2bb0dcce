// Verifications over HTTP: starting one, answering its requested information (files of the files area, values,
// addresses) with every refusal, the sandbox reviewer's approvals and rejections, kyc_incomplete (set by a payout past the limit) cleared,
// pending_information_request held while answers are asked again, the
// ads agreement signed, another account's verification a 404, and entry 45's nested form at an older pin.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { reviewVerification } from '../../handlers/verifications/review.js';
import { individualAnswers, readyFile } from './verification-fixtures.js';
import { complianceReview, holdForKyc, payoutOwner } from '../payouts/payout-fixtures.js';

const t = suite('verifications');
let app: TestApp;
let env: FileEnv;
let close: () => Promise<void>;
t.before(async () => { ({ app, env, close } = await startAppWithStore()); });
t.after(async () => { await close(); });

type Owner = Awaited<ReturnType<typeof makeOwner>>;
const start = (o: Owner, body: Record<string, unknown> = {}, version?: string) =>
  app.request('POST', '/verifications', { token: o.key, query: { account_id: o.accountId }, body, version });
const answer = (o: Owner, id: string, requested_information: unknown[], version?: string) =>
  app.request('PATCH', `/verifications/${id}`, { token: o.key, body: { requested_information }, version });
const get = (o: Owner, id: string, version?: string) => app.request('GET', `/verifications/${id}`, { token: o.key, version });
const started = async (o: Owner, body: Record<string, unknown> = {}) => {
  const res = await start(o, body);
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
};
const refused = (res: { status: number; body: any }, param: string, type = 'invalid_request') => {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, type);
  assert.is(res.body.error.param, param);
};
const jobsFor = (id: string) => app.db.raw(`select count(*)::int as n from graphile_worker.jobs where key = ?`, [`review_verification:${id}`]);

t('start: an individual identity verification lists what it needs; starting again answers the open one', async () => {
  const o = await makeOwner(app.db);
  const v = await started(o);
  assert.match(v.id, /^verf_/);
  assert.equal([v.account_id, v.purpose, v.kind, v.status, v.submitted_at, v.reviewed_at],
    [o.accountId, 'identity', 'individual', 'action_required', null, null]);
  assert.equal(v.requested_information.map((e: any) => [e.requirement, e.answer_type, e.multiple, e.answered]), [
    ['legal_name', 'value', null, false], ['date_of_birth', 'value', null, false], ['ssn', 'value', null, false],
    ['home_address', 'address', null, false], ['government_id', 'file', true, false],
  ]);
  assert.equal(v.requested_information[2], { id: 'req_ssn', requirement: 'ssn', label: 'Social security number (9 digits)', answer_type: 'value', multiple: null, options: null, answered: false, errors: [] });
  assert.is((await started(o)).id, v.id);
  const business = await started(o, { kind: 'business' });
  assert.is(business.id, v.id, 'one open identity verification per account');
  assert.is((await app.db('verifications').where({ account_id: o.accountId })).length, 1);
});

t('business verification asks for a bank statement and a structure among options', async () => {
  const o = await makeOwner(app.db);
  const v = await started(o, { kind: 'business' });
  const entries = Object.fromEntries(v.requested_information.map((e: any) => [e.requirement, e]));
  assert.is(entries.bank_statement.answer_type, 'file');
  assert.ok(entries.business_structure.options.includes('private_corporation'));
  refused(await answer(o, v.id, [{ id: 'req_business_structure', value: 'partnership-ish' }]), 'requested_information.0.value');
  const ok = await answer(o, v.id, [{ id: 'req_business_structure', value: 'private_corporation' }, { id: 'req_ein', value: '987654321' }]);
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.requested_information.filter((e: any) => e.answered).map((e: any) => e.requirement), ['business_structure', 'ein']);
});

t('list and retrieve: filters, order, and another account sees nothing', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const v = await started(o);
  const ads = await started(o, { purpose: 'ads_agreement' });
  const all = await app.request('GET', '/verifications', { token: o.key, query: { account_id: o.accountId } });
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.data.map((x: any) => x.id), [ads.id, v.id]);
  const asc = await app.request('GET', '/verifications', { token: o.key, query: { account_id: o.accountId, direction: 'asc', order: 'updated_at' } });
  assert.equal(asc.body.data.map((x: any) => x.id), [v.id, ads.id]);
  const only = await app.request('GET', '/verifications', { token: o.key, query: { account_id: o.accountId, purpose: 'ads_agreement' } });
  assert.equal(only.body.data.map((x: any) => x.id), [ads.id]);
  const none = await app.request('GET', '/verifications', { token: o.key, query: { account_id: o.accountId, status: 'approved' } });
  assert.equal(none.body.data, []);
  assert.is((await get(o, v.id)).body.id, v.id);
  // Another account's verification does not exist for it, whether read, listed or answered.
  assert.is((await get(other, v.id)).status, 404);
  assert.is((await answer(other, v.id, [{ id: 'req_ssn', value: '123456789' }])).status, 404);
  assert.is((await app.request('GET', '/verifications', { token: other.key, query: { account_id: o.accountId } })).status, 404);
  assert.is((await app.request('POST', '/verifications', { token: other.key, query: { account_id: o.accountId }, body: {} })).status, 404);
  assert.is((await get(o, 'verf_nope')).status, 404);
});

t('answers: every refusal names the field and keeps nothing', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const v = await started(o);
  const fileId = await readyFile(app, o.key);
  const theirs = await readyFile(app, other.key);
  const pending = (await app.request('POST', '/files', { token: o.key, body: { filename: 'later.png' } })).body.id;
  const ok = { id: 'req_legal_name', value: 'Ada Lovelace' };
  const cases: [unknown, string][] = [
    [{ id: 'req_nope', value: 'x' }, 'requested_information.1.id'],
    [{ id: 'req_ssn', file: fileId }, 'requested_information.1.value'],
    [{ id: 'req_ssn', value: '12-34' }, 'requested_information.1.value'],
    [{ id: 'req_ssn', value: '123456789', address: { line1: 'a', city: 'b', country: 'US' } }, 'requested_information.1.value'],
    [{ id: 'req_date_of_birth', value: 'yesterday' }, 'requested_information.1.value'],
    [{ id: 'req_home_address', value: '1 Main St' }, 'requested_information.1.address'],
    [{ id: 'req_government_id', file: theirs }, 'requested_information.1.file'],
    [{ id: 'req_government_id', file: pending }, 'requested_information.1.file'],
    [{ id: 'req_government_id', file: 'file_unknown' }, 'requested_information.1.file'],
    [{ id: 'req_legal_name', value: 'Twice' }, 'requested_information.1.id'],
  ];
  for (const [bad, param] of cases) refused(await answer(o, v.id, [ok, bad]), param);
  refused(await answer(o, v.id, [{ id: 'req_home_address', address: { line1: '1', city: 'x', country: 'usa' } }]), 'requested_information.0.address.country');
  refused(await answer(o, v.id, []), 'requested_information');
  const after = (await get(o, v.id)).body;
  assert.ok(after.requested_information.every((e: any) => !e.answered), 'nothing kept from refused requests');
  assert.equal((await app.db('verifications').where({ id: v.id }).first()).answers, {});
});

t('identity: answered in steps, processing, approved by the reviewer; kyc_incomplete cleared; the job is idempotent', async () => {
  const o = await makeOwner(app.db);
  await holdForKyc(app, o);
  const v = await started(o);
  const front = await readyFile(app, o.key, 'front.png');
  const back = await readyFile(app, o.key, 'back.png');
  const [first, ...rest] = individualAnswers(front);
  const step = await answer(o, v.id, [first!, { id: 'req_government_id', file: front }]);
  assert.is(step.body.status, 'action_required');
  const done = await answer(o, v.id, [...rest.slice(0, 3), { id: 'req_government_id', file: back }]);
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.status, 'processing');
  assert.ok(done.body.submitted_at);
  assert.ok(done.body.requested_information.every((e: any) => e.answered && e.errors.length === 0));
  const stored = await app.db('verifications').where({ id: v.id }).first();
  assert.equal(stored.answers.req_government_id.map((f: any) => f.file), [front, back], 'a multiple entry gathers its files');
  assert.is((await jobsFor(v.id)).rows[0].n, 1);
  refused(await answer(o, v.id, [first!]), 'status', 'invalid_state');
  const account = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(account.body.payment_controls.undated_pending_reason, 'kyc_incomplete');

  await reviewVerification(app.db, v.id);
  const approved = (await get(o, v.id)).body;
  assert.equal([approved.status, !!approved.reviewed_at], ['approved', true]);
  const cleared = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(cleared.body.payment_controls.undated_pending_reason, null);
  // Run again (a retried job): nothing moves.
  await complianceReview(app, o);
  await reviewVerification(app.db, v.id);
  assert.is((await get(o, v.id)).body.updated_at, approved.updated_at);
  assert.is((await app.db('accounts').where({ id: o.accountId }).first()).undated_pending_reason, 'compliance_review');
  const events = await app.db('events').where({ account_id: o.accountId, type: 'verification.updated' }).orderBy('created_at');
  assert.equal(events.map((e: any) => e.data.status), ['processing', 'approved']);
});

t('the KYC gate: past 10,000.00 USD of payouts an unverified account is held until its identity is approved', async () => {
  const o = await payoutOwner(app, 2_000_000);
  const pay = (amount: string) => app.request('POST', '/payouts', { token: o.key, body: { account_id: o.accountId, payout_method_id: o.methodId, amount } });
  const held = async () => (await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).body.payment_controls.undated_pending_reason;
  assert.is((await pay('9000.00')).status, 201, 'under the limit: paid out');
  const refusedPayout = await pay('1000.01');
  assert.equal([refusedPayout.status, refusedPayout.body.error.type, refusedPayout.body.error.param],
    [400, 'invalid_state', 'payment_controls.undated_pending_reason']);
  assert.match(refusedPayout.body.error.message, /kyc incomplete.*POST \/verifications/);
  assert.is(await held(), 'kyc_incomplete', 'the refusal holds the funds');
  assert.is((await app.db('payouts').where({ account_id: o.accountId })).length, 1, 'nothing of the refused payout is written');
  assert.match((await pay('1.00')).body.error.message, /blocked: kyc incomplete/, 'held: every payout is refused');
  const v = await started(o);
  assert.match((await holdForKyc(app, o)).body.error.message, new RegExp(`answer the identity verification ${v.id}`));
  await answer(o, v.id, individualAnswers(await readyFile(app, o.key)));
  await reviewVerification(app.db, v.id);
  assert.is(await held(), null, 'an approved identity releases the funds');
  assert.is((await pay('5000.00')).status, 201, 'verified: no limit');
});

t('reviewer: a rejected tax id and an unreadable document are asked again with code and reason, then approved', async () => {
  const o = await makeOwner(app.db);
  const held = async () => (await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).body.payment_controls.undated_pending_reason;
  const v = await started(o);
  const blurry = await readyFile(app, o.key, 'reject-blurry.png');
  assert.is((await answer(o, v.id, individualAnswers(blurry, { ssn: '000000000' }))).body.status, 'processing');
  await reviewVerification(app.db, v.id);
  const back = (await get(o, v.id)).body;
  assert.is(back.status, 'action_required');
  assert.is(await held(), 'pending_information_request', 'answers asked again hold the funds');
  const byReq = Object.fromEntries(back.requested_information.map((e: any) => [e.requirement, e]));
  assert.equal(byReq.ssn.errors, [{ code: 'tax_id_mismatch', reason: 'The ssn does not match the name given.' }]);
  assert.is(byReq.ssn.answered, false);
  assert.equal(byReq.government_id.errors.map((e: any) => e.code), ['document_unreadable']);
  assert.equal([byReq.legal_name.answered, byReq.legal_name.errors], [true, []]);
  const clear = await readyFile(app, o.key, 'clear.png');
  const fixed = await answer(o, v.id, [{ id: 'req_ssn', value: '123456789' }, { id: 'req_government_id', file: clear }]);
  assert.is(fixed.body.status, 'processing');
  assert.is(await held(), null, 'answered: the request no longer holds the funds');
  assert.ok(fixed.body.requested_information.every((e: any) => e.errors.length === 0));
  await reviewVerification(app.db, v.id);
  assert.is((await get(o, v.id)).body.status, 'approved');
  assert.is(await held(), null);
});

t('reviewer: "Rejected Person" rejects the identity for good; a new verification can then start', async () => {
  const o = await makeOwner(app.db);
  await holdForKyc(app, o);
  const v = await started(o);
  await answer(o, v.id, individualAnswers(await readyFile(app, o.key), { legal_name: 'Rejected Person' }));
  await reviewVerification(app.db, v.id);
  const r = (await get(o, v.id)).body;
  assert.is(r.status, 'rejected');
  assert.equal(r.requested_information[0].errors.map((e: any) => e.code), ['identity_rejected']);
  assert.is((await app.db('accounts').where({ id: o.accountId }).first()).undated_pending_reason, 'kyc_incomplete');
  refused(await answer(o, v.id, [{ id: 'req_legal_name', value: 'Ada' }]), 'status', 'invalid_state');
  assert.is.not((await started(o)).id, v.id);
});

t('ads agreement: starting it asks for a signature; answering signs it with printed_name and accepted_at', async () => {
  const o = await makeOwner(app.db);
  const prefs = () => app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is((await prefs()).body.ads_agreement.status, 'not_required');
  refused(await start(o, { purpose: 'ads_agreement', kind: 'business' }), 'kind');
  const v = await started(o, { purpose: 'ads_agreement' });
  assert.equal(v.requested_information.map((e: any) => [e.requirement, e.options]), [['printed_name', null], ['ads_terms', ['accept']]]);
  assert.equal((await prefs()).body.ads_agreement, { status: 'pending_signature', agreement_version: '2026-09-01', printed_name: null, accepted_at: null });
  refused(await answer(o, v.id, [{ id: 'req_ads_terms', value: 'maybe' }]), 'requested_information.0.value');
  const half = await answer(o, v.id, [{ id: 'req_printed_name', value: 'Ada Lovelace' }]);
  assert.is(half.body.status, 'action_required');
  assert.is((await prefs()).body.ads_agreement.status, 'pending_signature');
  const signed = await answer(o, v.id, [{ id: 'req_ads_terms', value: 'accept' }]);
  assert.is(signed.status, 200, JSON.stringify(signed.body));
  assert.equal([signed.body.status, !!signed.body.reviewed_at], ['approved', true]);
  const agreement = (await prefs()).body.ads_agreement;
  assert.equal([agreement.status, agreement.printed_name, agreement.agreement_version], ['signed', 'Ada Lovelace', '2026-09-01']);
  assert.ok(Math.abs(Date.parse(agreement.accepted_at) - Date.parse(signed.body.updated_at)) < 1000, agreement.accepted_at);
  assert.is((await jobsFor(v.id)).rows[0].n, 0, 'a signature needs no reviewer');
  refused(await start(o, { purpose: 'ads_agreement' }), 'purpose');
});

t('entry 45: before 2026-08-07 requested_information is nested into documents and fields', async () => {
  const o = await makeOwner(app.db);
  const pin = '2026-07-30';
  const v = (await start(o, {}, pin)).body;
  assert.equal(Object.keys(v.requested_information), ['documents', 'fields']);
  assert.equal(v.requested_information.documents.map((e: any) => e.requirement), ['government_id']);
  assert.equal(v.requested_information.fields.map((e: any) => e.requirement), ['legal_name', 'date_of_birth', 'ssn', 'home_address']);
  const answered = await answer(o, v.id, [{ id: 'req_ssn', value: '123456789' }], pin);
  assert.is(answered.status, 200, JSON.stringify(answered.body));
  assert.is(answered.body.requested_information.fields[2].answered, true);
  const listed = await app.request('GET', '/verifications', { token: o.key, query: { account_id: o.accountId }, version: pin });
  assert.ok(!Array.isArray(listed.body.data[0].requested_information));
  // The latest version: the flat list.
  assert.ok(Array.isArray((await get(o, v.id)).body.requested_information));
  assert.ok(Array.isArray((await get(o, v.id, '2026-08-07')).body.requested_information));
});

t.run();
