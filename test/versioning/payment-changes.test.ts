// Implemented changelog entries on payments (4, 7, 33), at the version before each and the version after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant, makeSavedMethod, pay } from '../payments/payment-fixtures.js';

const t = suite('versioning: payment changes');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
});
t.after(async () => { await app.close(); });

t('#33 native payment and refund endpoints exist from 2026-08-21 and not before', async () => {
  const variant = await makeVariant(app.db, seller.accountId, { price: 500 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const at = (version: string, path: string) => app.request('GET', path, { token: seller.key, version });
  assert.is((await at('2026-08-21', `/payments/${id}`)).status, 200);
  const before = await at('2026-08-14', `/payments/${id}`);
  assert.is(before.status, 404);
  assert.match(before.body.error.message, 'does not exist at API version 2026-08-14');
  assert.is((await at('2026-08-14', '/payments')).status, 404);
  assert.is((await at('2026-08-14', '/refunds')).status, 404);
  assert.is((await at('2026-08-21', '/refunds')).status, 200);
});

t('#4 payments carry pdf_url (null until a receipt is generated) before 2026-09-06, and not from it', async () => {
  const variant = await makeVariant(app.db, seller.accountId, { price: 700 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const at = (version: string) => app.request('GET', `/payments/${id}`, { token: seller.key, version });
  assert.not.ok('pdf_url' in (await at('2026-09-06')).body);
  const old = (await at('2026-09-02')).body;
  assert.ok('pdf_url' in old);
  assert.is(old.pdf_url, null);
  const listed = await app.request('GET', '/payments', { token: seller.key, version: '2026-09-02', query: { account_id: seller.accountId } });
  assert.ok(listed.body.data.every((p: any) => p.pdf_url === null));
});

t('#7 a saved-method charge with return_url treats the buyer as present from 2026-09-02 only', async () => {
  // A card that needs a 3-D Secure step: with the buyer present it waits for them; without, it cannot authenticate.
  const variant = await makeVariant(app.db, seller.accountId, { price: 500, threeDSecurePolicy: 'mandate_challenge' });
  await app.db('accounts').where({ id: seller.accountId }).update({ three_d_secure_challenge_enabled: true });
  const charge = async (version: string) => {
    const saved = await makeSavedMethod(app.db, seller.accountId, 'requires_3ds');
    const res = await app.request('POST', '/payments', {
      token: seller.key, version,
      body: { account_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id,
        return_url: 'https://shop.example/return' },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const present = await charge('2026-09-02');
  assert.is(present.status, 'requires_action');
  assert.ok(present.next_action);
  const absent = await charge('2026-08-28');
  assert.is.not(absent.status, 'requires_action');
});

t.run();
