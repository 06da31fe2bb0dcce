// Bounties over HTTP: the escrow (available -> held), attempts, proof, review, payment exactly once from the escrow,
// the leftover returned when closed or completed, every refusal, and the ledger exact to the cent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { availableOf, heldOf, keyWithRole, makeBusiness, makeWalletUser, VERSION } from '../transfers/transfer-fixtures.js';

const t = suite('bounties');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, version: VERSION, body });
async function ok(method: string, path: string, token: string, body?: unknown, status = 200) {
  const res = await call(method, path, token, body);
  assert.is(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const post = (business: { key: string; accountId: string }, body: Record<string, unknown> = {}) =>
  ok('POST', '/bounties', business.key, { account_id: business.accountId, title: 'Clip my stream', description: 'A 30 s clip', gross_reward_amount: 25, accepted_submissions_limit: 2, ...body }, 201);
const start = (token: string, bountyId: string) => ok('POST', '/bounty_submissions', token, { bounty_id: bountyId }, 201);
const prove = (token: string, id: string) => ok('POST', `/bounty_submissions/${id}/submit`, token, { deliverable_type: 'content_url', deliverable_urls: ['https://clips.example/1'], content: 'here' });
const review = (key: string, id: string, body: Record<string, unknown>) => call('POST', `/bounty_submissions/${id}/review`, key, body);

async function ledgerClean() {
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries, report.dailyTotalMismatches], [[], [], []]);
}

t('posting escrows the whole pool from available into held; the resource', async () => {
  const biz = await makeBusiness(app, 10_000);
  const b = await post(biz);
  assert.match(b.id, /^bnty_/);
  assert.equal([b.status, b.currency, b.gross_reward_amount, b.accepted_submissions_limit, b.accepted_submissions_count, b.spots_remaining, b.budget_amount, b.gross_paid_out_amount, b.unresolved_submissions_count, b.submissions_closed_at],
    ['open', 'usd', 25, 2, 0, 2, 50, 0, 0, null]);
  assert.equal(b.funding_account, { id: biz.accountId, title: biz.account.title });
  assert.equal([await availableOf(app.db, biz.accountId), await heldOf(app.db, biz.accountId)], [5_000, 5_000]);
  assert.equal(await ok('GET', `/bounties/${b.id}`, biz.key), b);
  const events = await app.db('events').where({ type: 'bounty.created' }).whereRaw("data->>'id' = ?", [b.id]);
  assert.is(events.length, 1);
  await ledgerClean();
});

t('a pool the balance cannot cover is 400 insufficient_funds naming gross_reward_amount; nothing written', async () => {
  const biz = await makeBusiness(app, 4_999);
  const res = await call('POST', '/bounties', biz.key, { account_id: biz.accountId, title: 'x', description: 'y', gross_reward_amount: 25, accepted_submissions_limit: 2 });
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'insufficient_funds', 'gross_reward_amount']);
  assert.is((await app.db('bounties').where({ account_id: biz.accountId })).length, 0);
  assert.is(await availableOf(app.db, biz.accountId), 4_999);
});

t('bad input names the field; scopes and other accounts', async () => {
  const biz = await makeBusiness(app, 10_000);
  for (const [body, param] of [
    [{ title: 'x', description: 'y', gross_reward_amount: 0 }, 'gross_reward_amount'],
    [{ title: 'x', description: 'y', gross_reward_amount: 1.5 }, 'gross_reward_amount'],
    [{ title: '', description: 'y', gross_reward_amount: 1 }, 'title'],
    [{ title: 'x', gross_reward_amount: 1 }, 'description'],
    [{ title: 'x', description: 'y', gross_reward_amount: 1, accepted_submissions_limit: 0 }, 'accepted_submissions_limit'],
  ] as const) {
    const res = await call('POST', '/bounties', biz.key, { account_id: biz.accountId, ...body });
    assert.equal([res.status, res.body.error.param], [400, param], JSON.stringify(res.body));
  }
  const other = await makeBusiness(app, 10_000);
  const theirs = await post(other);
  assert.is((await call('POST', '/bounties', biz.key, { account_id: other.accountId, title: 'x', description: 'y', gross_reward_amount: 1 })).status, 404);
  assert.is((await call('GET', `/bounties/${theirs.id}`, biz.key)).status, 404);
  assert.is((await call('PATCH', `/bounties/${theirs.id}`, biz.key, { title: 'mine' })).status, 404);
  assert.is((await call('POST', `/bounties/${theirs.id}/close`, biz.key)).status, 404);
  const viewer = await keyWithRole(app.db, other.accountId, 'viewer');
  assert.is((await call('GET', `/bounties/${theirs.id}`, viewer)).status, 200);
  assert.is((await call('POST', '/bounties', viewer, { account_id: other.accountId, title: 'x', description: 'y', gross_reward_amount: 1 })).status, 403);
  assert.is((await call('POST', `/bounties/${theirs.id}/close`, viewer)).status, 403);
  assert.is((await call('GET', '/bounties/bnty_nope', biz.key)).status, 404);
});

t('list filters by status and title; update changes only title and description', async () => {
  const biz = await makeBusiness(app, 100_000);
  const a = await post(biz, { title: 'Alpha clip' });
  const b = await post(biz, { title: 'Beta review' });
  await ok('POST', `/bounties/${a.id}/close`, biz.key);
  const all = await ok('GET', `/bounties?account_id=${biz.accountId}`, biz.key);
  assert.equal(all.data.map((x: any) => x.id), [b.id, a.id]);
  assert.equal((await ok('GET', `/bounties?account_id=${biz.accountId}&status=open`, biz.key)).data.map((x: any) => x.id), [b.id]);
  assert.equal((await ok('GET', `/bounties?account_id=${biz.accountId}&query=alpha`, biz.key)).data.map((x: any) => x.id), [a.id]);
  const updated = await ok('PATCH', `/bounties/${b.id}`, biz.key, { title: 'Beta', description: 'new' });
  assert.equal([updated.title, updated.description, updated.gross_reward_amount], ['Beta', 'new', 25]);
  assert.is((await call('PATCH', `/bounties/${b.id}`, biz.key, { gross_reward_amount: 1 })).status, 400);
});

t('attempt -> proof -> approved pays one reward from the escrow to the worker, exactly once', async () => {
  const biz = await makeBusiness(app, 10_000);
  const worker = await makeWalletUser(app);
  const b = await post(biz);
  const s = await start(worker.token, b.id);
  assert.match(s.id, /^bsub_/);
  assert.equal([s.status, s.bounty_id, s.account_id, s.worker.id, s.submitted_at, s.resolved_at, s.deliverable_urls], ['in_progress', b.id, biz.accountId, worker.id, null, null, null]);
  assert.is((await ok('GET', `/bounties/${b.id}`, biz.key)).unresolved_submissions_count, 1);
  // Reviewing before proof is an illegal move.
  const early = await review(biz.key, s.id, { decision: 'approve' });
  assert.equal([early.status, early.body.error.type], [400, 'invalid_state']);
  const proved = await prove(worker.token, s.id);
  assert.equal([proved.status, proved.deliverable_type, proved.deliverable_urls, proved.content], ['submitted', 'content_url', ['https://clips.example/1'], 'here']);
  assert.ok(proved.submitted_at);
  const submitted = await app.db('events').where({ type: 'bounty_submission.submitted', account_id: biz.accountId });
  assert.equal(submitted.map((e: any) => [e.data.id, e.data.status, e.data.submitted_at]), [[s.id, 'submitted', proved.submitted_at]]);
  const again = await call('POST', `/bounty_submissions/${s.id}/submit`, worker.token, { deliverable_type: 'media', deliverable_urls: ['x'] });
  assert.equal([again.status, again.body.error.type], [400, 'invalid_state']);
  const approved = await review(biz.key, s.id, { decision: 'approve' });
  assert.is(approved.status, 200, JSON.stringify(approved.body));
  assert.equal([approved.body.status, approved.body.denial_reason], ['approved', null]);
  assert.ok(approved.body.resolved_at);
  const twice = await review(biz.key, s.id, { decision: 'approve' });
  assert.equal([twice.status, twice.body.error.type], [400, 'invalid_state']);
  assert.equal([await availableOf(app.db, worker.id), await heldOf(app.db, biz.accountId), await availableOf(app.db, biz.accountId)], [2_500, 2_500, 5_000]);
  const bounty = await ok('GET', `/bounties/${b.id}`, biz.key);
  assert.equal([bounty.status, bounty.accepted_submissions_count, bounty.spots_remaining, bounty.gross_paid_out_amount], ['open', 1, 1, 25]);
  // The worker reads their own submission; an approved one cannot be deleted.
  assert.is((await ok('GET', `/bounty_submissions/${s.id}`, worker.token)).status, 'approved');
  const del = await call('DELETE', `/bounty_submissions/${s.id}`, worker.token);
  assert.equal([del.status, del.body.error.type], [400, 'invalid_state']);
  await ledgerClean();
});

t('two approvals at once pay once', async () => {
  const biz = await makeBusiness(app, 10_000);
  const worker = await makeWalletUser(app);
  const b = await post(biz);
  const s = await start(worker.token, b.id);
  await prove(worker.token, s.id);
  const results = await Promise.all([review(biz.key, s.id, { decision: 'approve' }), review(biz.key, s.id, { decision: 'approve' })]);
  assert.equal(results.map((r) => r.status).sort(), [200, 400]);
  assert.is(await availableOf(app.db, worker.id), 2_500);
  await ledgerClean();
});

t('denied needs a reason and pays nothing; the worker may start again', async () => {
  const biz = await makeBusiness(app, 10_000);
  const worker = await makeWalletUser(app);
  const b = await post(biz);
  const s = await start(worker.token, b.id);
  const dup = await call('POST', '/bounty_submissions', worker.token, { bounty_id: b.id });
  assert.equal([dup.status, dup.body.error.param], [409, 'bounty_id']);
  await prove(worker.token, s.id);
  const noReason = await review(biz.key, s.id, { decision: 'deny' });
  assert.equal([noReason.status, noReason.body.error.param], [400, 'denial_reason']);
  const reasonOnApprove = await review(biz.key, s.id, { decision: 'approve', denial_reason: 'x' });
  assert.equal([reasonOnApprove.status, reasonOnApprove.body.error.param], [400, 'denial_reason']);
  const bad = await review(biz.key, s.id, { decision: 'maybe' });
  assert.equal([bad.status, bad.body.error.param], [400, 'decision']);
  const denied = await review(biz.key, s.id, { decision: 'deny', denial_reason: 'Off topic' });
  assert.equal([denied.status, denied.body.status, denied.body.denial_reason], [200, 'denied', 'Off topic']);
  const afterDeny = await review(biz.key, s.id, { decision: 'approve' });
  assert.equal([afterDeny.status, afterDeny.body.error.type], [400, 'invalid_state']);
  assert.equal([await availableOf(app.db, worker.id), await heldOf(app.db, biz.accountId)], [0, 5_000]);
  await start(worker.token, b.id);
  await ledgerClean();
});

t('the last slot completes the bounty; open attempts are denied; nothing is left to return', async () => {
  const biz = await makeBusiness(app, 10_000);
  const [w1, w2, w3] = [await makeWalletUser(app), await makeWalletUser(app), await makeWalletUser(app)];
  const b = await post(biz);
  const s1 = await start(w1.token, b.id);
  const s2 = await start(w2.token, b.id);
  const s3 = await start(w3.token, b.id);
  await prove(w1.token, s1.id);
  await prove(w2.token, s2.id);
  assert.is((await review(biz.key, s1.id, { decision: 'approve' })).status, 200);
  assert.is((await review(biz.key, s2.id, { decision: 'approve' })).status, 200);
  const done = await ok('GET', `/bounties/${b.id}`, biz.key);
  assert.equal([done.status, done.spots_remaining, done.gross_paid_out_amount, done.unresolved_submissions_count], ['completed', 0, 50, 0]);
  assert.ok(done.submissions_closed_at);
  const late = await ok('GET', `/bounty_submissions/${s3.id}`, w3.token);
  assert.equal([late.status, late.denial_reason], ['denied', 'bounty_closed']);
  assert.equal([await availableOf(app.db, w1.id), await availableOf(app.db, w2.id), await heldOf(app.db, biz.accountId), await availableOf(app.db, biz.accountId)], [2_500, 2_500, 0, 5_000]);
  const closed = await call('POST', `/bounties/${b.id}/close`, biz.key);
  assert.equal([closed.status, closed.body.error.type], [400, 'invalid_state']);
  const noMore = await call('POST', '/bounty_submissions', w3.token, { bounty_id: b.id });
  assert.equal([noMore.status, noMore.body.error.type], [400, 'invalid_state']);
  await ledgerClean();
});

t('closing returns what is left of the escrow; escrow = paid + returned to the cent; no approval after', async () => {
  const biz = await makeBusiness(app, 100_000);
  const [w1, w2] = [await makeWalletUser(app), await makeWalletUser(app)];
  const b = await post(biz, { gross_reward_amount: 7, accepted_submissions_limit: 3 });
  const s1 = await start(w1.token, b.id);
  const s2 = await start(w2.token, b.id);
  await prove(w1.token, s1.id);
  await prove(w2.token, s2.id);
  await review(biz.key, s1.id, { decision: 'approve' });
  const closed = await ok('POST', `/bounties/${b.id}/close`, biz.key);
  assert.equal([closed.status, closed.unresolved_submissions_count], ['closed', 0]);
  const row = await app.db('bounties').where({ id: b.id }).first();
  assert.equal([Number(row.escrow_amount), Number(row.paid_out_amount), Number(row.returned_amount)], [2_100, 700, 1_400]);
  assert.equal([await availableOf(app.db, biz.accountId), await heldOf(app.db, biz.accountId), await availableOf(app.db, w1.id)], [100_000 - 700, 0, 700]);
  const afterClose = await review(biz.key, s2.id, { decision: 'approve' });
  assert.equal([afterClose.status, afterClose.body.error.type], [400, 'invalid_state']);
  assert.is((await ok('GET', `/bounty_submissions/${s2.id}`, biz.key)).denial_reason, 'bounty_closed');
  const events = await app.db('events').where({ type: 'bounty.closed' }).whereRaw("data->>'id' = ?", [b.id]);
  assert.is(events.length, 1);
  await ledgerClean();
});

t('submissions: the worker alone submits and deletes; the account reviews; others get 404', async () => {
  const biz = await makeBusiness(app, 10_000);
  const other = await makeBusiness(app, 10_000);
  const [worker, stranger] = [await makeWalletUser(app), await makeWalletUser(app)];
  const b = await post(biz);
  const s = await start(worker.token, b.id);
  assert.is((await call('POST', `/bounty_submissions/${s.id}/submit`, stranger.token, { deliverable_type: 'media', deliverable_urls: ['x'] })).status, 404);
  assert.is((await call('DELETE', `/bounty_submissions/${s.id}`, stranger.token)).status, 404);
  assert.is((await call('GET', `/bounty_submissions/${s.id}`, stranger.token)).status, 404);
  assert.is((await call('GET', `/bounty_submissions/${s.id}`, other.key)).status, 404);
  assert.is((await review(other.key, s.id, { decision: 'deny', denial_reason: 'x' })).status, 404);
  assert.is((await review(await keyWithRole(app.db, biz.accountId, 'viewer'), s.id, { decision: 'deny', denial_reason: 'x' })).status, 403);
  assert.is((await call('POST', '/bounty_submissions', worker.token, { bounty_id: 'bnty_nope' })).status, 404);
  assert.is((await call('POST', '/bounty_submissions', biz.key, { bounty_id: b.id })).status, 403);
  const noUrls = await call('POST', `/bounty_submissions/${s.id}/submit`, worker.token, { deliverable_type: 'media' });
  assert.equal([noUrls.status, noUrls.body.error.param], [400, 'deliverable_urls']);
  const list = await ok('GET', `/bounty_submissions?account_id=${biz.accountId}&bounty_id=${b.id}`, biz.key);
  assert.equal(list.data.map((x: any) => x.id), [s.id]);
  assert.equal((await ok('GET', `/bounty_submissions?account_id=${biz.accountId}&status=approved`, biz.key)).data, []);
  assert.is((await call('GET', `/bounty_submissions?account_id=${biz.accountId}`, other.key)).status, 404);
  const deleted = await ok('DELETE', `/bounty_submissions/${s.id}`, worker.token);
  assert.equal(deleted, { id: s.id, deleted: true });
  assert.is((await call('GET', `/bounty_submissions/${s.id}`, worker.token)).status, 404);
  assert.equal((await ok('GET', `/bounty_submissions?account_id=${biz.accountId}`, biz.key)).data, []);
  assert.is((await call('DELETE', `/bounty_submissions/${s.id}`, worker.token)).status, 404);
  await start(worker.token, b.id);
});

t('a retried Idempotency-Key escrows once', async () => {
  const biz = await makeBusiness(app, 10_000);
  const body = { account_id: biz.accountId, title: 'x', description: 'y', gross_reward_amount: 10 };
  const first = await app.request('POST', '/bounties', { token: biz.key, version: VERSION, body, idempotencyKey: 'bounty-once' });
  const again = await app.request('POST', '/bounties', { token: biz.key, version: VERSION, body, idempotencyKey: 'bounty-once' });
  assert.equal([first.status, again.status, again.body.id], [201, 201, first.body.id]);
  assert.equal([await availableOf(app.db, biz.accountId), await heldOf(app.db, biz.accountId)], [9_000, 1_000]);
});

t.run();
