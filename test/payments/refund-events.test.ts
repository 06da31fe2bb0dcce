// Refunds are announced: refund.created in the request's transaction, then refund.succeeded or refund.failed when
// the processor settles them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, VERSION, makeSeller, makeVariant, pay, settleRefunds } from './payment-fixtures.js';

const t = suite('refund events');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const eventsFor = async (refundId: string) =>
  (await app.db('events').whereRaw("data->>'id' = ?", [refundId]).orderBy([{ column: 'created_at' }, { column: 'id' }])).map((e) => e.type);

t('a refund records refund.created, then refund.succeeded; a refused one refund.failed', async () => {
  const seller = await makeSeller(app.db);
  const variant = await makeVariant(app, seller.accountId, { price: 1200 });
  for (const [card, outcome] of [[CARDS.succeeds, 'refund.succeeded'], [CARDS.refundFails, 'refund.failed']] as const) {
    const { id } = await pay(app, seller, { plan_id: variant.id }, { card });
    const res = await app.request('POST', `/payments/${id}/refund`, { token: seller.key, version: VERSION, body: { partial_amount: 200 } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const refund = await app.db('refunds').where({ payment_id: id }).first();
    assert.equal(await eventsFor(refund.id), ['refund.created']);
    await settleRefunds(app, id);
    assert.equal(await eventsFor(refund.id), ['refund.created', outcome]);
    const [event] = await app.db('events').where({ type: outcome }).whereRaw("data->>'id' = ?", [refund.id]);
    assert.is(event.account_id, seller.accountId);
    assert.is(event.data.status, outcome === 'refund.succeeded' ? 'succeeded' : 'failed');
  }
});

t.run();
