// Cases at a pin before entry 50 (2026-07-30): the official client's shape (due_date for response_due_at, issue, its
// statuses), lists owned by company_id, and the native endpoints (timeline, summary, the merchant's actions) not there yet (404).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { renderAt } from '../../runtime/render.js';
import { resources } from '../../generated/resources.js';
import { envelope, fillHiddenForPayload } from '../../handlers/webhooks/delivery/envelope.js';
import { call, OLD, openCase, paid, seller, VERSION } from './case-fixtures.js';

const t = suite('resolution-center-versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('before entry 50: the official client\'s shape on retrieve, lists (company_id) and the sandbox', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  const old = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`, undefined, OLD);
  assert.is(old.status, 200, JSON.stringify(old.body));
  assert.equal(old.body, {
    id: c.id, company: { id: s.accountId }, user: { id: payment.buyerId, name: c.buyer.name, username: c.buyer.username },
    member: c.member_id ? { id: c.member_id } : null, payment: { id: payment.id }, issue: 'item_not_received',
    status: 'merchant_response_needed', due_date: c.response_due_at, merchant_response_actions: ['respond', 'accept'],
    customer_response_actions: ['respond', 'withdraw'], platform_response_actions: [], customer_appealed: false,
    merchant_appealed: false, created_at: c.created_at, updated_at: c.updated_at,
    resolution_events: [{ id: old.body.resolution_events[0]?.id, action: 'created', created_at: c.created_at, details: 'It never came.', reporter_type: 'customer' }],
  });
  const list = await call(app, s.key, 'GET', `/resolution_center_cases?company_id=${s.accountId}`, undefined, OLD);
  assert.equal([list.status, list.body.data.map((x: any) => [x.id, x.due_date])], [200, [[c.id, c.response_due_at]]]);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?company_id=${s.accountId}`)).status, 400);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}`, undefined, OLD)).status, 400);
  const other = await paid(app, s);
  const opened = await call(app, s.key, 'POST', '/sandbox/resolution_center_cases', { payment_id: other.id, reason: 'forgot_to_cancel', message: 'm' }, OLD);
  assert.equal([opened.status, opened.body.issue, typeof opened.body.due_date, 'response_due_at' in opened.body], [201, 'forgot_to_cancel', 'string', false]);
  // The head's object carries no timeline (hidden there); rendered at the older pin it is everything else.
  const { resolution_events: _timeline, ...rest } = old.body;
  assert.equal(JSON.parse(JSON.stringify(renderAt('ResolutionCenterCase', c, OLD))), rest);
});

t('before entry 50: each side and result in the client\'s status words', async () => {
  const s = await seller(app);
  const statusAt = async (id: string) => (await call(app, s.key, 'GET', `/resolution_center_cases/${id}`, undefined, OLD)).body;
  const a = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${a.c.id}/respond`, { message: 'x' });
  const waiting = await statusAt(a.c.id);
  assert.equal([waiting.status, waiting.due_date, waiting.merchant_response_actions], ['customer_response_needed', null, ['respond', 'accept', 'deny']]);
  await call(app, s.key, 'POST', `/resolution_center_cases/${a.c.id}/close`, {});
  assert.equal([(await statusAt(a.c.id)).status, (await statusAt(a.c.id)).customer_response_actions], ['merchant_won', []]);
  const b = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${b.c.id}/escalate`, {});
  const review = await statusAt(b.c.id);
  assert.equal([review.status, review.customer_response_actions, review.platform_response_actions], ['under_platform_review', ['withdraw'], ['merchant_wins', 'merchant_refund']]);
  await call(app, s.key, 'POST', `/resolution_center_cases/${b.c.id}/refund`, {});
  assert.is((await statusAt(b.c.id)).status, 'customer_won');
  const w = await openCase(app, s);
  await call(app, s.key, 'POST', `/sandbox/resolution_center_cases/${w.c.id}/withdraw`, {});
  assert.is((await statusAt(w.c.id)).status, 'customer_withdrew');
  const open = await openCase(app, s);
  // statuses[] filters by the client's words at the older pin, and is refused from entry 50 on.
  const by = async (q: string) => (await call(app, s.key, 'GET', `/resolution_center_cases?${q}`, undefined, OLD)).body.data.map((x: any) => x.id).sort();
  assert.equal(await by('statuses[]=customer_won'), [b.c.id]);
  assert.equal(await by('statuses[]=merchant_won&statuses[]=customer_withdrew'), [a.c.id, w.c.id].sort());
  assert.equal(await by('statuses[]=merchant_response_needed'), [open.c.id]);
  assert.equal(await by('statuses[]=merchant_info_needed'), []);
  const head = await call(app, s.key, 'GET', '/resolution_center_cases?statuses[]=customer_won');
  assert.equal([head.status, head.body.error.param], [400, 'statuses']);
});

t('before entry 50: the timeline, the summary and the merchant\'s actions do not exist (404)', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  for (const [method, path, body] of [
    ['GET', `/resolution_center_cases/${c.id}/events`, undefined],
    ['GET', '/resolution_center_cases/summary', undefined],
    ['POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x' }],
    ['POST', `/resolution_center_cases/${c.id}/refund`, {}],
    ['POST', `/resolution_center_cases/${c.id}/escalate`, {}],
    ['POST', `/resolution_center_cases/${c.id}/close`, {}],
  ] as const) {
    const res = await call(app, s.key, method, path, body, OLD);
    assert.is(res.status, 404, `${method} ${path}`);
    assert.is((await call(app, s.key, method, path, body, VERSION)).status === 404, false, `${method} ${path} at the head`);
  }
});


t('before entry 50: the timeline embedded as resolution_events, in the client\'s words; the head shows none and never reads it', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Shipped on Monday.' });
  const replied = await call(app, s.key, 'POST', `/sandbox/resolution_center_cases/${c.id}/reply`, { message: 'Still nothing.' }, OLD);
  assert.is(replied.status, 200, JSON.stringify(replied.body));
  assert.equal(replied.body.resolution_events.map((e: any) => [e.reporter_type, e.action, e.details]),
    [['customer', 'created', 'It never came.'], ['merchant', 'responded', 'Shipped on Monday.'], ['customer', 'responded', 'Still nothing.']]);
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, { message: 'Please decide.' });
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/refund`, {});
  const head = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events?first=100`);
  const old = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`, undefined, OLD);
  assert.is(old.status, 200);
  // The same steps as the native timeline (ids, times, actors, messages), oldest first.
  assert.equal(old.body.resolution_events, head.body.data.map((e: any) => ({
    id: e.id, action: { opened: 'created', responded: 'responded', replied: 'responded', escalated: 'escalated', refunded: 'accepted' }[e.action as string],
    created_at: e.created_at, details: e.message, reporter_type: e.actor,
  })));
  assert.equal(old.body.resolution_events.map((e: any) => e.action), ['created', 'responded', 'responded', 'escalated', 'accepted']);
  assert.is(old.body.status, 'customer_won');
  // Every list item at the older pin carries its own timeline (one statement for the page).
  const other = await openCase(app, s);
  const list = await call(app, s.key, 'GET', `/resolution_center_cases?company_id=${s.accountId}`, undefined, OLD);
  assert.equal(list.body.data.map((x: any) => [x.id, x.resolution_events.length]), [[other.c.id, 1], [c.id, 5]]);
  // The head hides it, and its statement does not read the timeline table.
  const now = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`);
  assert.equal([now.status, 'resolution_events' in now.body], [200, false]);
  const headList = await call(app, s.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}`);
  assert.is(headList.body.data.some((x: any) => 'resolution_events' in x), false);
  assert.not.match(resources.ResolutionCenterCase.byId, /resolution_center_case_events/);
  assert.not.match(resources.ResolutionCenterCase.columns, /resolution_center_case_events/);
});

t('before entry 50: a webhook payload carries the timeline too (read at delivery); the head\'s does not', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  const event = await app.db('events').where({ type: 'resolution_center_case.created' }).whereRaw("data->>'id' = ?", [c.id])
    .first('id', 'type', 'account_id', 'data', 'created_at');
  assert.not.ok('resolution_events' in event.data, 'the event stores the head\'s shape');
  const at = async (pin: string | null) => {
    const copy = { ...event, data: structuredClone(event.data) };
    await fillHiddenForPayload(app.db, copy, pin, false);
    return JSON.parse(envelope(copy, pin)).data;
  };
  const old = await at(OLD);
  assert.equal(old.resolution_events.map((e: any) => [e.reporter_type, e.action, e.details]), [['customer', 'created', 'It never came.']]);
  assert.not.ok('resolution_events' in await at(VERSION));
});

t.run();
