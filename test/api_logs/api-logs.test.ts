// Api logs over HTTP: real requests are logged (after the batch is flushed), filters and pages, no secret or body
// ever stored, another account's logs are 404, and the hourly purge deletes what is older than 7 days.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { purgeApiLogs } from '../../handlers/api_logs/purge.js';

const t = suite('api logs');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const logs = async (key: string, query: Record<string, string | number> = {}) => {
  await app.server.apiLogs!.flush();
  return app.request('GET', '/api_logs', { token: key, query });
};

t('real requests are logged with their operation, template, status, outcome, version and key', async () => {
  const o = await makeOwner(app.db);
  const me = await app.request('GET', '/accounts/me', { token: o.key, version: '2026-07-20' });
  assert.is(me.status, 200);
  const missing = await app.request('GET', '/payments/pay_nope', { token: o.key });
  assert.is(missing.status, 404);
  const res = await logs(o.key, { account_id: o.accountId });
  assert.is(res.status, 200);
  const [notFound, ok] = res.body.data;
  assert.is(res.body.data.length, 2); // the listing itself is logged after it answers
  assert.is(ok.operation, 'retrieveCurrentAccount');
  assert.is(ok.account_id, o.accountId);
  assert.is(ok.api_key_id, o.keyId);
  assert.is(ok.method, 'GET');
  assert.is(ok.path, '/accounts/me');
  assert.is(ok.status, 200);
  assert.is(ok.outcome, 'success');
  assert.is(ok.api_version, '2026-07-20');
  assert.is(ok.request_id, me.headers.get('request-id'));
  assert.ok(ok.id.startsWith('alog_'));
  assert.ok(Number.isInteger(ok.duration_ms) && ok.duration_ms >= 0);
  assert.is(notFound.operation, 'retrievePayment');
  assert.is(notFound.path, '/payments/{id}'); // the template, never the requested path
  assert.is(notFound.status, 404);
  assert.is(notFound.outcome, 'client_error');
  assert.is(notFound.request_id, missing.headers.get('request-id'));
});

t('filters: key, operation, status, outcome, window; cursor pages', async () => {
  const o = await makeOwner(app.db);
  const { makeKey } = await import('../helpers/fixtures.js');
  const other = await makeKey(app.db, { accountId: o.accountId, role: 'admin' });
  for (let i = 0; i < 3; i++) await app.request('GET', '/accounts/me', { token: o.key });
  await app.request('GET', '/accounts/me', { token: other.secret });
  await app.request('GET', `/payments/pay_x`, { token: other.secret });
  await app.server.apiLogs!.flush();
  const before = new Date().toISOString();
  const byKey = await logs(o.key, { account_id: o.accountId, api_key_id: other.id });
  assert.equal(byKey.body.data.map((l: any) => l.operation), ['retrievePayment', 'retrieveCurrentAccount']);
  const byOp = await logs(o.key, { account_id: o.accountId, operation: 'retrieveCurrentAccount' });
  assert.is(byOp.body.data.length, 4);
  const byStatus = await logs(o.key, { account_id: o.accountId, status: 404 });
  assert.equal(byStatus.body.data.map((l: any) => l.api_key_id), [other.id]);
  const byOutcome = await logs(o.key, { account_id: o.accountId, outcome: 'client_error' });
  assert.is(byOutcome.body.data.length, 1);
  const later = await logs(o.key, { account_id: o.accountId, created_after: before });
  assert.ok(later.body.data.every((l: any) => l.operation === 'listApiLogs'));
  const earlier = await logs(o.key, { account_id: o.accountId, created_before: before, operation: 'retrieveCurrentAccount', first: 3 });
  assert.is(earlier.body.data.length, 3);
  assert.ok(earlier.body.page_info.has_next_page);
  const next = await logs(o.key, { account_id: o.accountId, created_before: before, operation: 'retrieveCurrentAccount', first: 3, after: earlier.body.page_info.end_cursor });
  assert.is(next.body.data.length, 1);
  assert.not.ok(next.body.page_info.has_next_page);
  const bad = await logs(o.key, { account_id: o.accountId, outcome: 'maybe' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'outcome');
});

t('never a secret, a header or a body in a log', async () => {
  const o = await makeOwner(app.db);
  const marker = 'SECRET_BODY_MARKER_42';
  await app.request('POST', '/webhooks', { token: o.key, body: { account_id: o.accountId, url: `https://example.com/${marker}`, events: ['payment.succeeded'] } });
  await app.request('GET', '/accounts/me', { token: o.key, query: { nope: marker } });
  await app.server.apiLogs!.flush();
  const rows = await app.db('api_logs').where({ account_id: o.accountId });
  assert.ok(rows.length >= 2);
  const text = JSON.stringify(rows);
  assert.not.ok(text.includes(marker));
  assert.not.ok(text.includes(o.key));
  assert.not.ok(text.includes(o.key.slice(3, 15)));
  const webhook = rows.find((r: any) => r.operation === 'createWebhook');
  assert.ok(webhook);
  assert.is(webhook.path, '/webhooks');
});

t('another account\'s logs are a 404; a key of another account is never listed', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  await app.request('GET', '/accounts/me', { token: b.key });
  const res = await logs(a.key, { account_id: b.accountId });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  const mine = await logs(a.key, { api_key_id: b.keyId });
  assert.is(mine.status, 200);
  assert.is(mine.body.data.length, 0);
  const anonymous = await app.request('GET', '/api_logs');
  assert.is(anonymous.status, 401);
});

t('the purge deletes logs older than 7 days, and a second run deletes nothing', async () => {
  const o = await makeOwner(app.db);
  // Two flushes, two batches (migrations/490_api_log_batches.ts): the purge deletes a batch at a time.
  await app.request('GET', '/accounts/me', { token: o.key });
  await app.server.apiLogs!.flush();
  await app.request('GET', '/accounts/me', { token: o.key });
  await app.server.apiLogs!.flush();
  const batches = await app.db('api_log_batches').where({ account_id: o.accountId }).orderBy('last_at').select('id');
  assert.is(batches.length, 2);
  // sql-state-write: API logs are kept in real time, not sandbox clock time; the purge case needs batches 6 and 8 days old
  const age = (id: string, days: number) => app.db.raw(`update api_log_batches set first_at = first_at - ?::interval,
    last_at = last_at - ?::interval, created_ms = (select string_agg((m::bigint - ?)::text, E'\\x1f' order by n)
      from unnest(string_to_array(created_ms, E'\\x1f')) with ordinality u(m, n))
    where id = ?`, [`${days} days`, `${days} days`, days * 24 * 3600 * 1000, id]);
  const kept = await app.db('api_logs').where({ account_id: o.accountId }).orderBy('created_at').pluck('request_id');
  await age(batches[0].id, 8);
  await age(batches[1].id, 6);
  assert.is(await purgeApiLogs(app.db), 1); // requests, not batches
  assert.is(await purgeApiLogs(app.db), 0);
  const left = await app.db('api_logs').where({ account_id: o.accountId }).pluck('request_id');
  assert.equal(left, [kept[1]]);
});

t('a flush on close writes what is buffered', async () => {
  const o = await makeOwner(app.db);
  await app.request('GET', '/accounts/me', { token: o.key });
  await app.server.close(); // close() flushes: nothing waits for the timer
  const n = await app.db('api_logs').where({ account_id: o.accountId }).count('* as n').first();
  assert.is(Number(n!.n), 1); // the last test: t.after's close() finds the server closed already
});

t.run();
