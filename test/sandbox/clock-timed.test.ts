// The timed state machines outside memberships on a sandbox clock (spec/areas/clocks.yaml, runtime/clock.ts): an
// account's funds clear, its exports expire, its claim links expire and its payouts arrive when its clock passes the
// instant, not before, and at that instant of the clock's time. Everything through the HTTP API and the worker.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { until } from '../helpers/poll.js';
import { skip } from '../helpers/skip.js';
import { makeSeller, makeToken, makeVariant } from '../payments/payment-fixtures.js';
import { makeUser } from '../helpers/fixtures.js';
import { saveMethod } from '../payouts/payout-fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { clearingSeconds } from '../../handlers/ledger/clearing.js';

const t = suite('sandbox clock: timed state machines');
let app: TestApp;
let files: FileEnv;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });

/** The clock API is declared (the lead's spec/areas/clocks.yaml); until then these tests skip. */
const clocksDeclared = (() => {
  try { return readFileSync(new URL('../../spec/areas/clocks.yaml', import.meta.url), 'utf8').includes('createClock'); } catch { return false; }
})();
const test = (name: string, body: () => Promise<void>) => t(name, async () => {
  if (!clocksDeclared) return skip('no sandbox clock API yet (spec/areas/clocks.yaml createClock)');
  await body();
});

t.before(async () => {
  app = await startTestApp({ worker: true });
  files = useTemporaryStore(app);
});
t.after(async () => {
  files.restore();
  await app.close();
});

const SECOND = 1000;
const DAY = 86_400_000;
const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
/** A whole second some days from now: the instant a test clock starts at. */
const daysOn = (days: number) => new Date(Math.ceil((Date.now() + days * DAY) / SECOND) * SECOND).toISOString();

type Seller = Awaited<ReturnType<typeof makeSeller>>;

async function clockFor(s: Seller, frozenTime: string): Promise<string> {
  const res = await call('POST', '/sandbox/clocks', { token: s.key, body: { account_id: s.accountId, frozen_time: frozenTime } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** Advances the clock to `to` and waits until it is ready there. */
async function advance(s: Seller, clockId: string, to: string): Promise<void> {
  const res = await call('POST', `/sandbox/clocks/${clockId}/advance`, { token: s.key, body: { frozen_time: to } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const ready = await until(async () => {
    const clock = await call('GET', `/sandbox/clocks/${clockId}`, { token: s.key });
    return clock.body.status === 'ready' ? clock.body : null;
  }, `clock ${clockId} ready at ${to}`, { timeoutMs: 30_000 });
  assert.is(ready.frozen_time, to);
}

const balanceOf = async (s: Seller) => {
  const shown = await call('GET', `/accounts/${s.accountId}`, { token: s.key });
  assert.is(shown.status, 200, JSON.stringify(shown.body));
  return { available: shown.body.balance.available.amount as number, pending: shown.body.balance.pending.amount as number };
};

/** A seller on a clock started at `start`, paid `price` on it; the payment succeeded at the clock's time. */
async function paidOnClock(price: number) {
  const s = await makeSeller(app.db);
  const start = daysOn(10);
  const clockId = await clockFor(s, start);
  const variant = await makeVariant(app, s.accountId, { planType: 'one_time', price });
  const paid = await call('POST', '/payments', {
    token: s.key,
    body: { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), plan_id: variant.id, user_id: (await makeUser(app.db)).id },
  });
  assert.is(paid.status, 201, JSON.stringify(paid.body));
  await until(async () => (await call('GET', `/payments/${paid.body.id}`, { token: s.key })).body.status === 'succeeded', 'the payment collected');
  return { s, start, clockId, paymentId: paid.body.id as string };
}

/** Paid on a clock, then the clock moved past the clearing period: the net amount is available. */
async function fundedOnClock(price: number) {
  const paid = await paidOnClock(price);
  const now = at(paid.start, clearingSeconds() * SECOND + SECOND);
  await advance(paid.s, paid.clockId, now);
  const { available } = await balanceOf(paid.s);
  assert.ok(available > 0);
  return { ...paid, now, available };
}

test('a payment\'s funds stay pending until the clock passes the clearing period, then clear', async () => {
  const { s, start, clockId } = await paidOnClock(10_000);
  const { pending: net } = await balanceOf(s);
  assert.ok(net > 0 && net < 10_000, String(net));
  assert.equal(await balanceOf(s), { available: 0, pending: net });
  await advance(s, clockId, at(start, clearingSeconds() * SECOND - 60 * SECOND));
  assert.equal(await balanceOf(s), { available: 0, pending: net }, 'a minute before clearing');
  await advance(s, clockId, at(start, clearingSeconds() * SECOND + 60 * SECOND));
  assert.equal(await balanceOf(s), { available: net, pending: 0 }, 'cleared by the clock');
});

test('an export expires 30 days of the clock after it completed, at that instant', async () => {
  const s = await makeSeller(app.db);
  const start = daysOn(3);
  const clockId = await clockFor(s, start);
  const created = await call('POST', '/exports', { token: s.key, body: { account_id: s.accountId, resource: 'payments' } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const done = await until(async () => {
    const e = await call('GET', `/exports/${created.body.id}`, { token: s.key });
    return e.body.status === 'completed' ? e.body : null;
  }, 'the export completed on the clock');
  assert.is(done.completed_at, start);
  await advance(s, clockId, at(start, 29 * DAY));
  assert.is((await call('GET', `/exports/${done.id}`, { token: s.key })).body.status, 'completed', 'kept 29 days');
  await advance(s, clockId, at(start, 31 * DAY));
  const expired = (await call('GET', `/exports/${done.id}`, { token: s.key })).body;
  assert.is(expired.status, 'expired');
  assert.is(expired.expired_at, at(start, 30 * DAY), 'expired at the clock\'s instant of its retention end');
  assert.is(expired.download_url, null);
});

test('a claim link expires when the clock reaches its expires_at, and its held funds go back', async () => {
  const { s, now, clockId, available } = await fundedOnClock(10_000);
  const expiresAt = at(now, 3 * DAY);
  const link = await call('POST', '/transfers', {
    token: s.key, body: { type: 'claim_link', origin_id: s.accountId, amount: 1_000, currency: 'usd', expires_at: expiresAt },
  });
  assert.is(link.status, 201, JSON.stringify(link.body));
  assert.is(link.body.expires_at, expiresAt);
  assert.ok((await balanceOf(s)).available < available, 'the link holds its amount');
  await advance(s, clockId, at(expiresAt, -60 * SECOND));
  assert.is((await call('GET', `/transfers/${link.body.id}`, { token: s.key })).body.status, 'pending', 'a minute before expiry');
  await advance(s, clockId, at(expiresAt, 60 * SECOND));
  const ended = (await call('GET', `/transfers/${link.body.id}`, { token: s.key })).body;
  assert.is(ended.status, 'expired');
  assert.is(ended.failed_at, expiresAt, 'expired at the clock\'s instant');
  assert.is((await balanceOf(s)).available, available, 'the held funds are back');
});

test('a payout waits on the rail until the clock passes its arrival, then completes at the clock\'s time', async () => {
  const { s, now, clockId } = await fundedOnClock(10_000);
  const method = await saveMethod(app, s.key, { account_id: s.accountId }, '123456789');
  const created = await call('POST', '/payouts', {
    token: s.key, body: { account_id: s.accountId, payout_method_id: method.id, amount: '20.00', speed: 'standard' },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const arrival = created.body.estimated_arrival as string;
  assert.ok(arrival > now, `estimated_arrival ${arrival} after the clock's ${now}`);
  const sent = await until(async () => {
    const p = await call('GET', `/payouts/${created.body.id}`, { token: s.key });
    return p.body.status === 'processing' ? p.body : null;
  }, 'the payout sent to the rail at once');
  assert.is(sent.status, 'processing');
  await new Promise((r) => setTimeout(r, 500));
  assert.is((await call('GET', `/payouts/${created.body.id}`, { token: s.key })).body.status, 'processing', 'the clock stands: no arrival');
  await advance(s, clockId, at(arrival, SECOND));
  const arrived = (await call('GET', `/payouts/${created.body.id}`, { token: s.key })).body;
  assert.is(arrived.status, 'completed');
  // Completed by the rail's step on the clock, dated by it (the rail is quicker than its estimate).
  assert.ok(arrived.updated_at > now && arrived.updated_at <= arrival, `completed at ${arrived.updated_at}, on the clock`);
});

t.run();
