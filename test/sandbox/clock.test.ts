// Sandbox clocks (spec/areas/clocks.yaml, runtime/clock.ts): an account on a clock writes at the clock's time, work due
// now on a standing clock runs at once, and an advance moves the clock to its target through the worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { until } from '../helpers/poll.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeSeller, makeToken, makeVariant } from '../payments/payment-fixtures.js';

const t = suite('sandbox clocks');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const DAY = 86_400_000;
/** A whole second some days from now: the instant a test clock starts at. */
const daysOn = (days: number) => new Date(Math.ceil((Date.now() + days * DAY) / 1000) * 1000).toISOString();

async function clockFor(key: string, accountId: string, frozenTime: string) {
  const res = await call('POST', '/sandbox/clocks', { token: key, body: { account_id: accountId, frozen_time: frozenTime, name: 'test' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function advanced(key: string, clockId: string, to: string) {
  const res = await call('POST', `/sandbox/clocks/${clockId}/advance`, { token: key, body: { frozen_time: to } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.status, 'advancing');
  assert.is(res.body.target_time, to);
  return until(async () => {
    const now = await call('GET', `/sandbox/clocks/${clockId}`, { token: key });
    return now.body.status === 'ready' ? now.body : null;
  }, `clock ${clockId} ready at ${to}`, { timeoutMs: 30_000 });
}

t('a clock starts ready at its instant; a second one for the account, or one in the past, is refused', async () => {
  const o = await makeOwner(app.db);
  const start = daysOn(10);
  const clock = await clockFor(o.key, o.accountId, start);
  assert.match(clock.id, /^clk_/);
  assert.is(clock.status, 'ready');
  assert.is(clock.frozen_time, start);
  assert.is(clock.target_time, null);
  const again = await call('POST', '/sandbox/clocks', { token: o.key, body: { account_id: o.accountId } });
  assert.is(again.status, 409);
  assert.is(again.body.error.param, 'account_id');
  const other = await makeOwner(app.db);
  const past = await call('POST', '/sandbox/clocks', { token: other.key, body: { account_id: other.accountId, frozen_time: daysOn(-1) } });
  assert.is(past.status, 400);
  assert.is(past.body.error.param, 'frozen_time');
  const listed = await call('GET', `/sandbox/clocks?account_id=${o.accountId}`, { token: o.key });
  assert.equal(listed.body.data.map((c: any) => c.id), [clock.id]);
});

t('requests of an account on a clock are dated by it, and a payment is collected at once on a standing clock', async () => {
  const seller = await makeSeller(app.db);
  const start = daysOn(30);
  const clock = await clockFor(seller.key, seller.accountId, start);
  const product = await call('POST', '/products', { token: seller.key, body: { account_id: seller.accountId, title: 'Dated by the clock' } });
  assert.is(product.status, 201, JSON.stringify(product.body));
  assert.is(product.body.created_at, start);
  const variant = await makeVariant(app, seller.accountId, { planType: 'one_time', price: 700 });
  const token = await makeToken(app, seller.clientId);
  const paid = await call('POST', '/payments', {
    token: seller.key, body: { account_id: seller.accountId, confirmation_token: token, plan_id: variant.id, user_id: (await makeUser(app.db)).id },
  });
  assert.is(paid.status, 201, JSON.stringify(paid.body));
  assert.is(paid.body.created_at, start);
  const collected = await until(async () => {
    const p = await call('GET', `/payments/${paid.body.id}`, { token: seller.key });
    return p.body.status === 'succeeded' ? p.body : null;
  }, 'the payment collected on the clock');
  assert.is(collected.last_payment_attempt_at, start);
  assert.is((await call('GET', `/sandbox/clocks/${clock.id}`, { token: seller.key })).body.frozen_time, start);
});

t('an advance moves the clock to its target through the worker, with clock.advancing and clock.ready', async () => {
  const o = await makeOwner(app.db);
  const start = daysOn(5);
  const clock = await clockFor(o.key, o.accountId, start);
  const target = new Date(Date.parse(start) + 40 * DAY).toISOString();
  const ready = await advanced(o.key, clock.id, target);
  assert.is(ready.frozen_time, target);
  assert.is(ready.target_time, null);
  const types = (await app.db('events').where({ account_id: o.accountId }).whereIn('type', ['clock.advancing', 'clock.ready'])
    .orderBy('created_at')).map((e) => e.type);
  assert.equal(types, ['clock.advancing', 'clock.ready']);
  const product = await call('POST', '/products', { token: o.key, body: { account_id: o.accountId, title: 'After the advance' } });
  assert.is(product.body.created_at, target);
  const back = await call('POST', `/sandbox/clocks/${clock.id}/advance`, { token: o.key, body: { frozen_time: start } });
  assert.is(back.status, 400);
  assert.is(back.body.error.param, 'frozen_time');
  const tooFar = await call('POST', `/sandbox/clocks/${clock.id}/advance`, { token: o.key, body: { frozen_time: new Date(Date.parse(target) + 6 * 366 * DAY).toISOString() } });
  assert.is(tooFar.status, 400);
});

t('connected accounts follow their parent\'s clock; deleting the clock returns them to real time', async () => {
  const o = await makeOwner(app.db);
  const start = daysOn(100);
  const clock = await clockFor(o.key, o.accountId, start);
  const child = await call('POST', '/accounts', { token: o.key, body: { title: 'Connected', email: `c-${Date.now()}@example.com` } });
  assert.is(child.status, 201, JSON.stringify(child.body));
  const own = await call('POST', '/sandbox/clocks', { token: o.key, body: { account_id: child.body.id } });
  assert.is(own.status, 409);
  const childKey = { key: (await makeKey(app.db, { accountId: child.body.id, role: 'admin' })).secret };
  const dated = await call('POST', '/products', { token: childKey.key, body: { account_id: child.body.id, title: 'Child product' } });
  assert.is(dated.body.created_at, start);
  const gone = await call('DELETE', `/sandbox/clocks/${clock.id}`, { token: o.key });
  assert.is(gone.status, 200, JSON.stringify(gone.body));
  assert.equal(gone.body, { id: clock.id, deleted: true });
  const now = await call('POST', '/products', { token: childKey.key, body: { account_id: child.body.id, title: 'Real time again' } });
  assert.ok(Math.abs(Date.parse(now.body.created_at) - Date.now()) < 60_000, now.body.created_at);
  assert.is((await call('GET', `/sandbox/clocks/${clock.id}`, { token: o.key })).status, 404);
});

t('another account cannot see or move a clock', async () => {
  const o = await makeOwner(app.db);
  const clock = await clockFor(o.key, o.accountId, daysOn(1));
  const stranger = await makeOwner(app.db);
  assert.is((await call('GET', `/sandbox/clocks/${clock.id}`, { token: stranger.key })).status, 404);
  assert.is((await call('POST', `/sandbox/clocks/${clock.id}/advance`, { token: stranger.key, body: { frozen_time: daysOn(50) } })).status, 404);
});

t('every timestamp default reads the clock (a default written as now() would date rows of clocked accounts by the wall)', async () => {
  const { rows } = await app.db.raw(`select table_name || '.' || column_name as col, column_default from information_schema.columns
    where table_schema = 'public' and table_name not in ('clocks', 'clock_timers')
      and ((column_default ilike '%now()%' and column_default not ilike '%clock_now()%') or column_default ilike '%current_timestamp%')`);
  assert.equal(rows, [], 'write new defaults as date_trunc(\'milliseconds\', clock_now())');
});

t.run();
