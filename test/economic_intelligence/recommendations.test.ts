// Economic Intelligence recommendations: written by the generator from the account's data, moved by PATCH along
// their lifecycle, and shown in their older shapes before entries 15 and 19.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { generateRecommendations, sweepRecommendations, GENERATE_TASK } from '../../handlers/economic_intelligence/generate.js';
import { eventsOf, jobsFor } from '../account_preferences/preference-fixtures.js';

const t = suite('economic intelligence recommendations');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const OLD = '2026-08-27';

/** An owner whose account has Economic Intelligence on (turned on through preferences: its first weekly period, the
 * free trial, which needs no funds) and one visible product without a variant: the add_variant_to_product rule holds. */
async function ownerWithEi() {
  const o = await makeOwner(app.db);
  const on = await call('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { economic_intelligence_duration_key: 'weekly' } });
  assert.is(on.status, 200, JSON.stringify(on.body));
  assert.is(on.body.economic_intelligence.trial_ends_at, on.body.economic_intelligence.ends_at);
  const product = await call('POST', '/products', { token: o.key, body: { account_id: o.accountId, title: 'Course' } });
  assert.is(product.status, 201);
  return { ...o, productId: product.body.id as string, endsAt: on.body.economic_intelligence.ends_at as string };
}

async function generated(o: { accountId: string }) {
  await generateRecommendations(app.db, o.accountId);
  return app.db('economic_intelligence_recommendations').where({ account_id: o.accountId }).orderBy('created_at');
}

const patch = (o: { key: string }, id: string, body: unknown, version = headVersion()) =>
  app.request('PATCH', `/economic_intelligence/${id}`, { token: o.key, body, version });

t('turning Economic Intelligence on queues a run for the account', async () => {
  const o = await ownerWithEi();
  const jobs = (await jobsFor(app.db, GENERATE_TASK)).filter((j) => j.key === `${GENERATE_TASK}:${o.accountId}`);
  assert.is(jobs.length, 1);
});

t('the generator writes recommendations from the account\'s data, once, and supersedes stale ones', async () => {
  const o = await ownerWithEi();
  let rows = await generated(o);
  assert.equal(rows.map((r) => [r.kind, r.status]), [['add_variant_to_product', 'ready']]);
  assert.match(rows[0].summary, /^1 visible product has no variant/);
  // A rerun with the same data writes nothing more.
  assert.equal(await generateRecommendations(app.db, o.accountId), { created: [], superseded: [] });

  // Selling the product: the variant rule stops holding (superseded), the promo code rule starts.
  const v = await call('POST', '/variants', { token: o.key, body: { account_id: o.accountId, product_id: o.productId, plan_type: 'one_time', initial_price: 500 } });
  assert.is(v.status, 201);
  rows = await generated(o);
  assert.equal(rows.map((r) => [r.kind, r.status]), [['add_variant_to_product', 'superseded'], ['launch_promo_code', 'ready']]);
  assert.equal(rows[1].expected_tool_calls, [{ tool_name: 'createPromoCode', description: 'Create a promo code for a variant.' }]);
  assert.is((await eventsOf(app.db, o.accountId, 'economic_intelligence_recommendation.created')).length, 2);
  // (Past-due memberships, a state only time reaches: test/economic_intelligence/past-due-rule.test.ts.)
});

t('an account without Economic Intelligence gets nothing; the sweep queues only accounts where it is on', async () => {
  const off = await makeOwner(app.db);
  await call('POST', '/products', { token: off.key, body: { account_id: off.accountId, title: 'Course' } });
  assert.equal(await generateRecommendations(app.db, off.accountId), { created: [], superseded: [] });
  const on = await ownerWithEi();
  await app.db.raw(`delete from graphile_worker._private_jobs where key like '${GENERATE_TASK}:%'`);
  await sweepRecommendations(app.db);
  const keys = (await jobsFor(app.db, GENERATE_TASK)).map((j) => j.key);
  assert.ok(keys.includes(`${GENERATE_TASK}:${on.accountId}`));
  assert.not.ok(keys.includes(`${GENERATE_TASK}:${off.accountId}`));
  // Once the period (the trial) lapsed, a run writes nothing: a run at a time after it.
  assert.equal(await generateRecommendations(app.db, on.accountId, Date.parse(on.endsAt) + 1000), { created: [], superseded: [] });
});

t('list and retrieve: newest first, status filter, head shape', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  const list = await call('GET', '/economic_intelligence', { token: o.key, query: { account_id: o.accountId } });
  assert.is(list.status, 200);
  assert.equal(list.body.data.map((r: any) => r.id), [rec.id]);
  const one = await call('GET', `/economic_intelligence/${rec.id}`, { token: o.key });
  assert.is(one.status, 200);
  assert.equal(Object.keys(one.body).sort(), ['account_id', 'acknowledged_at', 'created_at', 'expected_tool_calls', 'id', 'kind',
    'result_url', 'run_by_user_id', 'run_ended_at', 'run_started_at', 'status', 'summary', 'title', 'updated_at']);
  assert.equal(one.body.expected_tool_calls[0], { tool_name: 'listProducts', description: 'List the account\'s visible products.' });
  const none = await call('GET', '/economic_intelligence', { token: o.key, query: { account_id: o.accountId, status: 'executed' } });
  assert.equal(none.body.data, []);
  const bad = await call('GET', '/economic_intelligence', { token: o.key, query: { status: 'done' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
});

t('another account\'s recommendations are never visible (404), and scopes are required (403)', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  const other = await makeOwner(app.db);
  assert.is((await call('GET', `/economic_intelligence/${rec.id}`, { token: other.key })).status, 404);
  assert.is((await patch(other, rec.id, { status: 'running' })).status, 404);
  const list = await call('GET', '/economic_intelligence', { token: other.key });
  assert.equal(list.body.data, []);
  assert.is((await call('GET', '/economic_intelligence', { token: other.key, query: { account_id: o.accountId } })).status, 404);
  const reader = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['economic_intelligence:read'] }] });
  assert.is((await call('GET', `/economic_intelligence/${rec.id}`, { token: reader.secret })).status, 200);
  const denied = await patch({ key: reader.secret }, rec.id, { status: 'running' });
  assert.is(denied.status, 403);
  const noRead = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['stats:read'] }] });
  assert.is((await call('GET', `/economic_intelligence/${rec.id}`, { token: noRead.secret })).status, 403);
  assert.is((await call('GET', '/economic_intelligence/eirec_nope', { token: o.key })).status, 404);
});

t('lifecycle: running sets run_started_at and the runner, executed run_ended_at and result_url, acknowledged acknowledged_at', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  const running = await call('PATCH', `/economic_intelligence/${rec.id}`, { token: o.token, body: { status: 'running' } });
  assert.is(running.status, 200, JSON.stringify(running.body));
  assert.is(running.body.status, 'running');
  assert.ok(running.body.run_started_at);
  assert.is(running.body.run_by_user_id, o.owner.id);
  assert.is(running.body.run_ended_at, null);
  const executed = await patch(o, rec.id, { status: 'executed', result_url: 'https://example.com/run/1' });
  assert.is(executed.body.status, 'executed');
  assert.ok(executed.body.run_ended_at);
  assert.is(executed.body.result_url, 'https://example.com/run/1');
  assert.is(executed.body.acknowledged_at, null);
  const ack = await patch(o, rec.id, { status: 'acknowledged' });
  assert.is(ack.body.status, 'executed');
  assert.ok(ack.body.acknowledged_at);
  const again = await patch(o, rec.id, { status: 'acknowledged' });
  assert.is(again.body.acknowledged_at, ack.body.acknowledged_at);
  assert.is((await eventsOf(app.db, o.accountId, 'economic_intelligence_recommendation.updated')).length, 4);
});

t('running then incomplete; an incomplete recommendation is not reopened and a new one can be written', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  await patch(o, rec.id, { status: 'running' });
  const inc = await patch(o, rec.id, { status: 'incomplete' });
  assert.is(inc.body.status, 'incomplete');
  assert.ok(inc.body.run_ended_at);
  const rows = await generated(o);
  assert.equal(rows.map((r) => r.status), ['incomplete', 'ready']);
});

t('illegal moves are 400 invalid_state naming status, and write nothing', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  for (const status of ['executed', 'incomplete', 'acknowledged']) {
    const res = await patch(o, rec.id, { status });
    assert.is(res.status, 400, status);
    assert.is(res.body.error.type, 'invalid_state');
    assert.is(res.body.error.param, 'status');
  }
  await patch(o, rec.id, { status: 'running' });
  for (const status of ['running', 'acknowledged']) assert.is((await patch(o, rec.id, { status })).status, 400, status);
  const withUrl = await patch(o, rec.id, { status: 'incomplete', result_url: 'https://example.com' });
  assert.is(withUrl.status, 400);
  assert.is(withUrl.body.error.param, 'result_url');
  const badUrl = await patch(o, rec.id, { status: 'executed', result_url: 'not a url' });
  assert.is(badUrl.status, 400);
  assert.is(badUrl.body.error.param, 'result_url');
  assert.is((await patch(o, rec.id, {})).body.error.param, 'status');
  const row = await app.db('economic_intelligence_recommendations').where({ id: rec.id }).first();
  assert.is(row.status, 'running');
  assert.is(row.run_ended_at, null);
});

t('entry 15 at an older pin: running reads as ready, incomplete as superseded; executed from ready runs and ends at once', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  await patch(o, rec.id, { status: 'running' });
  const old = await app.request('GET', `/economic_intelligence/${rec.id}`, { token: o.key, version: OLD });
  assert.is(old.body.status, 'ready');
  const readyList = await app.request('GET', '/economic_intelligence', { token: o.key, version: OLD, query: { account_id: o.accountId, status: 'ready' } });
  assert.equal(readyList.body.data.map((r: any) => r.id), [rec.id]);
  assert.is((await patch(o, rec.id, { status: 'running' }, OLD)).status, 400);
  assert.is((await patch(o, rec.id, { status: 'incomplete' }, OLD)).status, 400);
  await patch(o, rec.id, { status: 'incomplete' });
  const superseded = await app.request('GET', `/economic_intelligence/${rec.id}`, { token: o.key, version: OLD });
  assert.is(superseded.body.status, 'superseded');
  const supersededList = await app.request('GET', '/economic_intelligence', { token: o.key, version: OLD, query: { account_id: o.accountId, status: 'superseded' } });
  assert.equal(supersededList.body.data.map((r: any) => r.id), [rec.id]);

  // The older one-step run: a fresh ready recommendation executed directly.
  const [, fresh] = await generated(o);
  const done = await patch(o, fresh.id, { status: 'executed', result_url: 'https://example.com/r' }, OLD);
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.is(done.body.status, 'executed');
  assert.ok(done.body.run_started_at);
  assert.is(done.body.run_started_at, done.body.run_ended_at);
  // At the head, executed from ready is refused.
  // The next run finds no open recommendation of the kind (the last one was executed) and writes a fresh one.
  const [, , third] = await generated(o);
  assert.is((await patch(o, third.id, { status: 'executed' })).status, 400);
});

t('entry 19 at an older pin: expected_tool_calls are the tool names alone, in order', async () => {
  const o = await ownerWithEi();
  const [rec] = await generated(o);
  const old = await app.request('GET', `/economic_intelligence/${rec.id}`, { token: o.key, version: OLD });
  assert.equal(old.body.expected_tool_calls, ['listProducts', 'createVariant']);
  const head = await call('GET', `/economic_intelligence/${rec.id}`, { token: o.key });
  assert.equal(head.body.expected_tool_calls.map((c: any) => c.tool_name), ['listProducts', 'createVariant']);
  // A recommendation written before descriptions were kept shows description null at the head.
  await app.db('economic_intelligence_recommendations').where({ id: rec.id })
    .update({ expected_tool_calls: JSON.stringify([{ tool_name: 'listProducts', description: null }]) }); // sql-state-write: the row shape written before descriptions were kept, which no product path writes any more
  const older = await call('GET', `/economic_intelligence/${rec.id}`, { token: o.key });
  assert.equal(older.body.expected_tool_calls, [{ tool_name: 'listProducts', description: null }]);
});

t.run();
