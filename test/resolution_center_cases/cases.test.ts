// Resolution Center cases over HTTP at the latest version: the sandbox's buyer opens and answers, the merchant
// answers, closes, refunds, escalates; the state machine's refusals; lists, the timeline, the summary; another
// account never sees a case.
import { suite } from 'uvu';
import { useTemporaryStore } from '../files/file-env.js';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { settleRefunds, usd, viewerKey } from '../payments/payment-fixtures.js';
import { reportOnPayment } from '../../sandbox/card_scheme/index.js';
import { call, eventTypes, openCase, PAID, paid, seller, timeline, VERSION } from './case-fixtures.js';

const t = suite('resolution-center-cases');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('the buyer opens a case: the resource, its deadline, its timeline and event', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  assert.match(c.id, /^rcc_/);
  assert.equal([c.object, c.account_id, c.payment_id, c.buyer.id, c.reason, c.status, c.escalated, c.outcome, c.refund, c.dispute_id, c.resolved_at],
    [undefined, s.accountId, payment.id, payment.buyerId, 'item_not_received', 'awaiting_merchant', false, null, null, null, null]);
  assert.equal(c.amount, usd(PAID));
  assert.equal(c.available_actions, ['respond', 'refund', 'escalate']);
  assert.is((Date.parse(c.response_due_at) - Date.parse(c.created_at)) / 86_400_000, 3);
  const got = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`);
  assert.equal([got.status, got.body], [200, c]);
  assert.equal(await timeline(app, s.key, c.id), ['customer:opened']);
  const first = (await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events`)).body.data[0];
  assert.equal([first.case_id, first.message, first.attachments], [c.id, 'It never came.', []]);
  assert.match(first.id, /^rcce_/);
  assert.equal(await eventTypes(app, c.id), ['resolution_center_case.created']);
  const job = await app.db('graphile_worker._private_jobs').where({ key: `resolution_case_deadline:${c.id}` }).first('run_at');
  assert.is(new Date(job.run_at).toISOString(), c.response_due_at);
});

t('opening: a second case is 409, an uncollected, refunded or charged-back payment 400, bad input 400 naming the field', async () => {
  const s = await seller(app);
  const { payment } = await openCase(app, s);
  const open = (body: Record<string, unknown>) => call(app, s.key, 'POST', '/sandbox/resolution_center_cases',
    { reason: 'forgot_to_cancel', message: 'm', ...body });
  const again = await open({ payment_id: payment.id });
  assert.equal([again.status, again.body.error.type, again.body.error.param], [409, 'conflict', 'payment_id']);
  const { pay } = await import('../payments/payment-fixtures.js');
  const pending = await pay(app, s, { amount: PAID, currency: 'usd' }, { collect: false });
  const r1 = await open({ payment_id: pending.id });
  assert.equal([r1.status, r1.body.error.type, r1.body.error.param], [400, 'invalid_state', 'payment_id']);
  const refunded = await paid(app, s);
  assert.is((await call(app, s.key, 'POST', `/payments/${refunded.id}/refund`, {})).status, 200);
  const r2 = await open({ payment_id: refunded.id });
  assert.equal([r2.status, r2.body.error.param], [400, 'payment_id']);
  await settleRefunds(app, refunded.id);
  assert.equal((await open({ payment_id: refunded.id })).status, 400);
  const charged = await paid(app, s, '4000000000000259');
  await reportOnPayment(app.db, charged.id);
  const r3 = await open({ payment_id: charged.id });
  assert.equal([r3.status, r3.body.error.type, r3.body.error.param], [400, 'invalid_state', 'payment_id']);
  assert.match(r3.body.error.message, /charged back/);
  const fresh = await paid(app, s);
  for (const [body, param] of [
    [{ payment_id: fresh.id, reason: 'other' }, 'reason'],
    [{ payment_id: fresh.id, message: '' }, 'message'],
    [{ payment_id: 'rfnd_x' }, 'payment_id'],
    [{ payment_id: fresh.id, attachments: ['file_abc'] }, 'attachments.0'],
    [{ payment_id: fresh.id, attachments: ['nope'] }, 'attachments.0'],
  ] as const) {
    const res = await open(body);
    assert.equal([res.status, res.body.error.param], [400, param], JSON.stringify(res.body));
  }
  assert.is(await app.db('resolution_center_cases').where({ payment_id: fresh.id }).first(), undefined);
  const missing = await open({ payment_id: 'pay_doesnotexist' });
  assert.equal([missing.status, missing.body.error.param], [404, 'payment_id']);
});

t('another account never sees a case: retrieve, timeline, writes, sandbox moves and its payment are 404; lists leave it out', async () => {
  const s = await seller(app);
  const other = await seller(app);
  const { payment, c } = await openCase(app, s);
  for (const [method, path, body] of [
    ['GET', `/resolution_center_cases/${c.id}`, undefined],
    ['GET', `/resolution_center_cases/${c.id}/events`, undefined],
    ['POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x' }],
    ['POST', `/resolution_center_cases/${c.id}/refund`, {}],
    ['POST', `/resolution_center_cases/${c.id}/escalate`, {}],
    ['POST', `/resolution_center_cases/${c.id}/close`, {}],
    ['POST', `/sandbox/resolution_center_cases/${c.id}/reply`, { message: 'x' }],
    ['POST', `/sandbox/resolution_center_cases/${c.id}/withdraw`, {}],
  ] as const) {
    const res = await call(app, other.key, method, path, body);
    assert.equal([res.status, res.body.error.type], [404, 'not_found'], `${method} ${path}`);
  }
  const theirs = await call(app, other.key, 'POST', '/sandbox/resolution_center_cases', { payment_id: payment.id, reason: 'forgot_to_cancel', message: 'm' });
  assert.equal([theirs.status, theirs.body.error.param], [404, 'payment_id']);
  assert.equal((await call(app, other.key, 'GET', '/resolution_center_cases')).body.data, []);
  assert.is((await call(app, other.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}`)).status, 404);
  assert.equal((await call(app, other.key, 'GET', '/resolution_center_cases/summary')).body.totals, []);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`)).body.status, 'awaiting_merchant');
});

t('a viewer reads cases but cannot act (403); refunding also needs payment:charge; no credentials 401', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  const viewer = await viewerKey(app.db, s.accountId);
  assert.is((await call(app, viewer, 'GET', `/resolution_center_cases/${c.id}`)).status, 200);
  assert.is((await call(app, viewer, 'GET', `/resolution_center_cases/${c.id}/events`)).status, 200);
  for (const action of ['respond', 'refund', 'escalate', 'close']) {
    assert.is((await call(app, viewer, 'POST', `/resolution_center_cases/${c.id}/${action}`, { message: 'x' })).status, 403, action);
  }
  assert.is((await call(app, viewer, 'POST', `/sandbox/resolution_center_cases/${c.id}/reply`, { message: 'x' })).status, 403);
  assert.is((await app.request('GET', '/resolution_center_cases', {})).status, 401);
});

t('the conversation: respond waits on the customer, reply on the merchant with a fresh deadline; close ends it', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  const r = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Shipped on Monday.', attachments: [] });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal([r.body.status, r.body.response_due_at, r.body.available_actions], ['awaiting_customer', null, ['respond', 'refund', 'escalate', 'close']]);
  const again = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Tracking: 1Z.' });
  assert.is(again.body.status, 'awaiting_customer');
  const reply = await call(app, s.key, 'POST', `/sandbox/resolution_center_cases/${c.id}/reply`, { message: 'Still nothing.' });
  assert.is(reply.status, 200, JSON.stringify(reply.body));
  assert.equal([reply.body.status, reply.body.available_actions], ['awaiting_merchant', ['respond', 'refund', 'escalate']]);
  assert.ok(Date.parse(reply.body.response_due_at) >= Date.parse(c.response_due_at));
  const early = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/close`, {});
  assert.equal([early.status, early.body.error.type, early.body.error.param], [400, 'invalid_state', 'status']);
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Resent.' });
  const closed = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/close`, { message: 'Delivered today.' });
  assert.is(closed.status, 200, JSON.stringify(closed.body));
  assert.equal([closed.body.status, closed.body.outcome, closed.body.available_actions, closed.body.response_due_at],
    ['closed', 'closed', [], null]);
  assert.ok(closed.body.resolved_at);
  assert.equal(await timeline(app, s.key, c.id),
    ['customer:opened', 'merchant:responded', 'merchant:responded', 'customer:replied', 'merchant:responded', 'merchant:closed']);
  assert.equal(await eventTypes(app, c.id), ['resolution_center_case.created', 'resolution_center_case.updated', 'resolution_center_case.updated',
    'resolution_center_case.updated', 'resolution_center_case.updated', 'resolution_center_case.closed']);
  // A closed case refuses every move, and writes nothing.
  for (const [path, body] of [
    [`/resolution_center_cases/${c.id}/respond`, { message: 'x' }], [`/resolution_center_cases/${c.id}/refund`, {}],
    [`/resolution_center_cases/${c.id}/escalate`, {}], [`/resolution_center_cases/${c.id}/close`, {}],
    [`/sandbox/resolution_center_cases/${c.id}/reply`, { message: 'x' }], [`/sandbox/resolution_center_cases/${c.id}/withdraw`, {}],
  ] as const) {
    const res = await call(app, s.key, 'POST', path, body);
    assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_state', 'status'], path);
  }
  assert.is((await timeline(app, s.key, c.id)).length, 6);
});

t('writes: message required where it is the write; attachments are the caller\'s ready files; a refused write writes nothing', async () => {
  const s = await seller(app);
  const other = await seller(app);
  const { c } = await openCase(app, s);
  const files = useTemporaryStore(app);
  try {
    const upload = async (key: string, finish: boolean) => {
      const f = (await app.request('POST', '/files', { token: key, version: VERSION, body: { filename: 'proof.txt' } })).body;
      if (finish) assert.is((await fetch(f.upload_url, { method: 'PUT', body: 'tracking 1Z999', headers: f.upload_headers })).status, 200);
      return f.id as string;
    };
    const mine = await upload(s.key, true);
    for (const [attachments, at] of [[['file_abc'], 0], [[mine, await upload(other.key, true)], 1], [[await upload(s.key, false)], 0]] as const) {
      const refused = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x', attachments });
      assert.equal([refused.status, refused.body.error.param], [400, `attachments.${at}`], JSON.stringify(refused.body));
      // The one error of every body naming files (handlers/files/ready-files.ts), as app builds and verifications answer.
      assert.match(refused.body.error.message, at === 1 || attachments[0] === 'file_abc' ? 'No such file of yours' : 'is not uploaded yet');
    }
    const noMessage = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, {});
    assert.equal([noMessage.status, noMessage.body.error.param], [400, 'message']);
    const tooLong = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x'.repeat(5001) });
    assert.equal([tooLong.status, tooLong.body.error.param], [400, 'message']);
    const unknown = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, { note: 'x' });
    assert.is(unknown.status, 400);
    assert.equal(await timeline(app, s.key, c.id), ['customer:opened']);
    const attached = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Shipped, see proof.', attachments: [mine] });
    assert.is(attached.status, 200, JSON.stringify(attached.body));
    const events = (await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events`)).body.data;
    assert.equal(events.map((e: any) => e.attachments), [[], [mine]]);
    assert.is((await call(app, s.key, 'GET', '/resolution_center_cases/rcc_nope')).status, 404);
  } finally {
    files.restore();
  }
});

t('refund through the case: a real refund of what remains, the case closes refunded; the refund settles', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  const res = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/refund`, { message: 'Sorry about that.' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.status, res.body.outcome, res.body.refund.status], ['closed', 'refunded', 'pending']);
  const refund = await app.db('refunds').where({ id: res.body.refund.id }).first();
  assert.equal([refund.payment_id, Number(refund.amount)], [payment.id, PAID]);
  await settleRefunds(app, payment.id);
  const after = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`);
  assert.is(after.body.refund.status, 'succeeded');
  assert.is((await call(app, s.key, 'GET', `/payments/${payment.id}`)).body.status, 'refunded');
  assert.equal(await timeline(app, s.key, c.id), ['customer:opened', 'merchant:refunded']);
  assert.equal(await eventTypes(app, c.id), ['resolution_center_case.created', 'resolution_center_case.closed']);
});

t('refund: refused with nothing left to refund (refund), nothing written', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  assert.is((await call(app, s.key, 'POST', `/payments/${payment.id}/refund`, {})).status, 200);
  const res = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/refund`, {});
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_state', 'refund']);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`)).body.status, 'awaiting_merchant');
  assert.is((await app.db('refunds').where({ payment_id: payment.id })).length, 1);
});

t('the buyer withdraws: closed withdrawn; from the platform review too', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  const w = await call(app, s.key, 'POST', `/sandbox/resolution_center_cases/${c.id}/withdraw`, { message: 'It arrived.' });
  assert.equal([w.status, w.body.status, w.body.outcome], [200, 'closed', 'withdrawn']);
  const second = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${second.c.id}/escalate`, {});
  const w2 = await call(app, s.key, 'POST', `/sandbox/resolution_center_cases/${second.c.id}/withdraw`, {});
  assert.equal([w2.status, w2.body.outcome, w2.body.escalated], [200, 'withdrawn', true]);
});

t('lists: account_id optional, cursor pages, filters; the summary by status, outcome and currency', async () => {
  const s = await seller(app);
  const a = await openCase(app, s);
  const b = await openCase(app, s, { reason: 'forgot_to_cancel' });
  const all = await call(app, s.key, 'GET', '/resolution_center_cases');
  assert.equal(all.body.data.map((x: any) => x.id), [b.c.id, a.c.id]);
  const page = await call(app, s.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}&first=1`);
  assert.equal([page.body.data.length, page.body.page_info.has_next_page], [1, true]);
  const next = await call(app, s.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}&first=1&after=${page.body.page_info.end_cursor}`);
  assert.equal(next.body.data.map((x: any) => x.id), [a.c.id]);
  assert.equal((await call(app, s.key, 'GET', '/resolution_center_cases?direction=asc')).body.data.map((x: any) => x.id), [a.c.id, b.c.id]);
  assert.equal((await call(app, s.key, 'GET', `/resolution_center_cases?payment_id=${a.payment.id}`)).body.data.map((x: any) => x.id), [a.c.id]);
  assert.equal((await call(app, s.key, 'GET', '/resolution_center_cases?reason=forgot_to_cancel')).body.data.map((x: any) => x.id), [b.c.id]);
  await call(app, s.key, 'POST', `/resolution_center_cases/${a.c.id}/escalate`, { message: 'Please decide.' });
  assert.equal((await call(app, s.key, 'GET', '/resolution_center_cases?escalated=true')).body.data.map((x: any) => x.id), [a.c.id]);
  assert.equal((await call(app, s.key, 'GET', '/resolution_center_cases?status=awaiting_merchant')).body.data.map((x: any) => x.id), [b.c.id]);
  const hourAgo = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?created_before=${hourAgo}`)).body.data.length, 0);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?created_after=${hourAgo}`)).body.data.length, 2);
  assert.equal((await call(app, s.key, 'GET', '/resolution_center_cases?status=open')).body.error.param, 'status');
  await call(app, s.key, 'POST', `/resolution_center_cases/${b.c.id}/refund`, {});
  const summary = await call(app, s.key, 'GET', `/resolution_center_cases/summary?account_id=${s.accountId}`);
  assert.is(summary.status, 200, JSON.stringify(summary.body));
  assert.equal(summary.body, { object: 'resolution_center_case_summary', totals: [
    { status: 'awaiting_platform', outcome: null, count: 1, amount: usd(PAID) },
    { status: 'closed', outcome: 'refunded', count: 1, amount: usd(PAID) },
  ] });
});

t('the timeline pages by cursor, oldest first by default', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  for (let i = 0; i < 3; i++) {
    await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: `m${i}` });
  }
  const first = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events?first=2`);
  assert.equal([first.body.data.map((e: any) => e.message), first.body.page_info.has_next_page], [['It never came.', 'm0'], true]);
  const rest = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events?first=2&after=${first.body.page_info.end_cursor}`);
  assert.equal([rest.body.data.map((e: any) => e.message), rest.body.page_info.has_next_page], [['m1', 'm2'], false]);
  const newest = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events?direction=desc&first=1`);
  assert.equal(newest.body.data.map((e: any) => e.message), ['m2']);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}/events?after=forged`)).body.error.param, 'after');
});

t.run();
