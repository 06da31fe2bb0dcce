import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, makeSeller, pay, VERSION } from './payment-fixtures.js';

const t = suite('payments collected by the background worker');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

async function waitForStatus(key: string, id: string, wanted: string[], timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.request('GET', `/payments/${id}`, { token: key, version: VERSION });
    if (wanted.includes(res.body.status)) return res.body;
    if (Date.now() > until) throw new Error(`payment ${id} stayed ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t('the worker collects, declines and refunds without help', async () => {
  const s = await makeSeller(app.db);
  const ok = await pay(app, s, { amount: 500, currency: 'usd' }, { collect: false });
  const bad = await pay(app, s, { amount: 500, currency: 'usd' }, { card: CARDS.declined, collect: false });
  assert.is((await waitForStatus(s.key, ok.id, ['succeeded'])).status, 'succeeded');
  assert.is((await waitForStatus(s.key, bad.id, ['failed'])).failure_code, 'card_declined');
  const refund = await app.request('POST', `/payments/${ok.id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 200 } });
  assert.is(refund.status, 200);
  const refunded = await waitForStatus(s.key, ok.id, ['partially_refunded']);
  assert.is(refunded.refunded_amount.amount, 200);
});

t.run();
