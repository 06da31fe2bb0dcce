// The shadow replay over HTTP: a key pinned at 2026-07-20 that paid, listed payments and memberships and retrieved
// its account sees, for 2026-09-06, the real differences of its own answers with the entries that caused them; a
// read of an id it cannot reach is listed, not a failure; its write's request changes are listed; nothing is written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey } from '../helpers/fixtures.js';
import { makeSavedMethod, makeSeller, makeVariant } from '../payments/payment-fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';

const t = suite('shadow replay');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Difference = { kind: string; path: string; before: unknown; after: unknown; ref: string | null; changelog: string | null };
type Operation = { operation: string; requests: number; differences: Difference[]; unreadable: { path: string; status: number; message: string }[] };

async function pinnedKeyWithHistory() {
  const seller = await makeSeller(app.db);
  const pinned = await makeKey(app.db, { accountId: seller.accountId, role: 'admin', apiVersionDate: '2026-07-20' });
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  const saved = await makeSavedMethod(app, seller.accountId);
  await makeMembership(app, seller.accountId, saved.buyer.id);
  const as = (method: string, path: string, options: { query?: Record<string, string>; body?: unknown } = {}) =>
    app.request(method, path, { token: pinned.secret, ...options });
  const paid = await as('POST', '/payments', {
    body: { company_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id },
  });
  assert.is(paid.status, 200, JSON.stringify(paid.body));
  for (const [path, query] of [['/payments', { company_id: seller.accountId }], ['/memberships', { company_id: seller.accountId }],
    [`/accounts/${seller.accountId}`, {}]] as const) {
    const res = await as('GET', path, { query });
    assert.is(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  }
  assert.is((await as('GET', '/payments/pay_gone')).status, 404);
  await app.server.apiLogs!.flush();
  return { seller, pinned };
}

t('a key pinned at 2026-07-20: its own answers at 2026-09-06, each difference with its entry', async () => {
  const { seller, pinned } = await pinnedKeyWithHistory();
  const logsBefore = await app.request('GET', '/api_logs', { token: seller.token, query: { account_id: seller.accountId, api_key_id: pinned.id, first: 100 } });
  const res = await app.request('GET', `/api_keys/${pinned.id}/shadow_replay`, { token: seller.token, query: { target: '2026-09-06' } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const replay = res.body;
  assert.equal([replay.api_key_id, replay.from, replay.to, replay.requests_logged, replay.requests_replayed, replay.sampled],
    [pinned.id, '2026-07-20', '2026-09-06', 4, 4, false]);
  const op = (name: string) => replay.operations.find((o: Operation) => o.operation === name) as Operation;
  const diff = (name: string, kind: string, path: string) => op(name).differences.find((d) => d.kind === kind && d.path === path);
  assert.equal(replay.operations.map((o: Operation) => o.operation), ['listMemberships', 'listPayments', 'retrieveAccount', 'retrievePayment']);

  // Payments: money objects instead of decimals, company_id now account_id, status words (entry 33 of 2026-08-21).
  const total = diff('listPayments', 'retyped', 'data[].total');
  assert.equal([total?.before, total?.after, total?.ref], [10.43, { amount: 1043, currency: 'usd', decimals: 2, display_decimals: 2 }, '2026-08-21#33']);
  assert.ok(total?.changelog && total.changelog.length > 0);
  const account = diff('listPayments', 'renamed', 'data[].account_id');
  assert.equal([account?.before, account?.after, account?.ref], [{ company_id: seller.accountId }, { account_id: seller.accountId }, '2026-08-21#33']);
  const status = diff('listPayments', 'values_changed', 'data[].status');
  assert.equal([status?.before, status?.after, status?.ref], ['pending', 'processing', '2026-08-21#33']);
  assert.is(diff('listPayments', 'removed', 'data[].substatus')?.ref, '2026-08-21#33');
  // Memberships: company_id now account_id (entry 53 of 2026-07-23).
  const members = diff('listMemberships', 'renamed', 'data[].account_id');
  assert.equal([members?.before, members?.after, members?.ref], [{ company_id: seller.accountId }, { account_id: seller.accountId }, '2026-07-23#53']);
  // The account: its parent as an object (entry 47 of 2026-07-30).
  assert.is(diff('retrieveAccount', 'added', 'parent_account')?.ref, '2026-07-30#47');
  assert.is(diff('retrieveAccount', 'removed', 'parent_account_id')?.ref, '2026-07-30#47');
  // Every difference reported names its entry, but for none.
  for (const o of replay.operations as Operation[]) for (const d of o.differences) assert.ok(d.ref, `${o.operation} ${d.kind} ${d.path} has no entry`);

  // An id the key cannot read: reported, not a failure.
  assert.equal(op('retrievePayment').differences, []);
  assert.equal(op('retrievePayment').unreadable.map((u) => [u.path, u.status]), [['/payments/pay_gone', 404]]);
  // Its write is not replayed: the request's changes are listed.
  assert.equal(replay.writes.map((w: { operation: string }) => w.operation), ['createPayment']);
  const renamedBody = replay.writes[0].request_changes.find((c: { kind: string; field: string }) => c.kind === 'request_field_renamed' && c.field === 'account_id');
  assert.equal([renamedBody?.in, renamedBody?.ref], ['body', '2026-08-21#33']);

  // The replays are the platform's, not the key's: not logged, and nothing was written (one payment still).
  await app.server.apiLogs!.flush();
  const logsAfter = await app.request('GET', '/api_logs', { token: seller.token, query: { account_id: seller.accountId, api_key_id: pinned.id, first: 100 } });
  assert.is(logsAfter.body.data.length, logsBefore.body.data.length);
  const payments = await app.request('GET', '/payments', { token: seller.key, query: { account_id: seller.accountId } });
  assert.is(payments.body.data.length, 1);
});

t('scopes and the CLI: the owner\'s key reads it; the CLI prints the same replay', async () => {
  const { seller, pinned } = await pinnedKeyWithHistory();
  const limited = await makeKey(app.db, { accountId: seller.accountId, statements: [{ effect: 'allow', actions: ['payment:read'] }] });
  const refused = await app.request('GET', `/api_keys/${pinned.id}/shadow_replay`, { token: limited.secret });
  assert.is(refused.status, 403, JSON.stringify(refused.body));
  const bad = await app.request('GET', `/api_keys/${pinned.id}/shadow_replay`, { token: seller.key, query: { target: '2020-01-01' } });
  assert.is(bad.status, 400);
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'bin/cli.ts', 'shadow-replay', '--key', pinned.id, '--target', '2026-09-06', '--json'],
    { env: { ...process.env, DATABASE_URL: app.databaseUrl } });
  const printed = JSON.parse(stdout);
  assert.equal([printed.from, printed.to, printed.requests_replayed], ['2026-07-20', '2026-09-06', 4]);
  const listPayments = printed.operations.find((o: Operation) => o.operation === 'listPayments') as Operation;
  assert.ok(listPayments.differences.some((d) => d.kind === 'retyped' && d.path === 'data[].total' && d.ref === '2026-08-21#33'));
});

t.run();
