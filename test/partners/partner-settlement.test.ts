// Partner earnings follow their payment's settlement, and the referral window ends on the account's sandbox clock:
// an earning awaits settlement (pending in the partner's wallet) until the payment's funds clear, then it is completed
// and available; a payment after referral_expires_at earns nothing. Through the HTTP API, the clock and the worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { clearingSeconds } from '../../handlers/ledger/clearing.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { REFERRAL_WINDOW_DAYS } from '../../handlers/partners/refer.js';
import { pay } from '../payments/payment-fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { referred } from './partner-fixtures.js';

const t = suite('partner settlement and expiry');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const SECOND = 1000;
const DAY = 86_400_000;
const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const get = (token: string, path: string) => app.request('GET', path, { token, version: headVersion() });
const wallet = async (userId: string) => {
  const rows = await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, userId), currency: 'usd' }).whereIn('bucket', ['available', 'pending']).select('bucket', 'amount');
  const of = (b: string) => Number(rows.find((r: any) => r.bucket === b)?.amount ?? 0);
  return { available: of('available'), pending: of('pending') };
};

type Referred = Awaited<ReturnType<typeof referred>>;

async function onClock(r: Referred, frozenTime: string) {
  const res = await app.request('POST', '/sandbox/clocks', { token: r.key, version: headVersion(), body: { account_id: r.accountId, frozen_time: frozenTime } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

async function advance(r: Referred, clockId: string, to: string) {
  const res = await app.request('POST', `/sandbox/clocks/${clockId}/advance`, { token: r.key, version: headVersion(), body: { frozen_time: to } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await until(async () => (await get(r.key, `/sandbox/clocks/${clockId}`)).body.status === 'ready', `clock ready at ${to}`, { timeoutMs: 30_000 });
}

/** A payment on the account's clock, collected by the worker at the clock's time. */
async function paid(r: Referred, amount: number) {
  const p = await pay(app, r, { amount, currency: 'usd' }, { collect: false });
  await until(async () => (await get(r.key, `/payments/${p.id}`)).body.status === 'succeeded', 'the payment collected');
  return p.id;
}

t('an earning awaits settlement until its payment\'s funds clear, then it is completed and available', async () => {
  const r = await referred(app);
  const start = new Date(Math.ceil((Date.now() + DAY) / SECOND) * SECOND).toISOString();
  const clockId = await onClock(r, start);
  const paymentId = await paid(r, 10_000); // platform fee 100: commission 30
  const business = async () => (await get(r.partner.token, `/partners/businesses/${r.businessId}`)).body;
  const [earning] = (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`)).body.data;
  assert.equal([earning.status, earning.payout_at, earning.resource.id], ['awaiting_settlement', null, paymentId]);
  assert.equal([(await business()).volume_usd, (await business()).earnings_usd], [
    { attributed: '100.00', awaiting_settlement: '100.00', settled: '0.00' }, { completed: '0.00', pending: '0.30', total: '0.30' }]);
  assert.equal(await wallet(r.partner.id), { available: 0, pending: 30 });

  await advance(r, clockId, at(start, clearingSeconds() * SECOND - 60 * SECOND));
  assert.is((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`)).body.data[0].status, 'awaiting_settlement', 'a minute before clearing');
  const cleared = at(start, clearingSeconds() * SECOND + 60 * SECOND);
  await advance(r, clockId, cleared);
  const [settled] = (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?status=completed`)).body.data;
  assert.equal([settled?.id, settled?.status], [earning.id, 'completed']);
  assert.ok(Date.parse(settled.payout_at) >= Date.parse(start) + clearingSeconds() * SECOND && Date.parse(settled.payout_at) <= Date.parse(cleared),
    `paid at the clock's clearing instant: ${settled.payout_at}`);
  assert.equal([(await business()).volume_usd, (await business()).earnings_usd], [
    { attributed: '100.00', awaiting_settlement: '0.00', settled: '100.00' }, { completed: '0.30', pending: '0.00', total: '0.30' }]);
  assert.equal(await wallet(r.partner.id), { available: 30, pending: 0 });
  assert.equal((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?status=awaiting_settlement`)).body.data, []);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('after referral_expires_at (on the clock) a payment earns nothing', async () => {
  const r = await referred(app);
  const shown = (await get(r.partner.token, `/partners/businesses/${r.businessId}`)).body;
  assert.is(Date.parse(shown.referral_expires_at), Date.parse(shown.referral_started_at) + REFERRAL_WINDOW_DAYS * DAY);
  // The clock starts a minute before the window ends: a payment then earns, one after it does not.
  const start = at(shown.referral_expires_at, -60 * SECOND);
  const clockId = await onClock(r, start);
  await paid(r, 10_000);
  assert.is((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`)).body.data.length, 1);
  await advance(r, clockId, at(shown.referral_expires_at, 60 * SECOND));
  await paid(r, 10_000);
  const earnings = (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings`)).body.data;
  assert.is(earnings.length, 1, 'no earning after the referral window');
  assert.is((await get(r.partner.token, `/partners/businesses/${r.businessId}`)).body.volume_usd.attributed, '100.00');
});

t.run();
