// Client methods the server cannot serve as the client calls them: each is a clear error (status, type, param and
// message), never a 500 or a silent success.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { makeSavedMethod, makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: methods the server refuses clearly');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
});
t.after(async () => { await app.close(); });

const envelope = (err: { error: unknown }) => raw(err.error).error as { type: string; message: string; param?: string; request_id: string };

t('memberships.resyncAccess: no such route, a NotFoundError naming the request', async () => {
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, seller.accountId, buyer.id);
  const err = await rejects(sdk(app, seller.key).memberships.resyncAccess(m.id), NotFoundError, 404);
  assert.is(envelope(err).type, 'not_found');
  assert.is(envelope(err).message, `Unrecognized request URL (POST /api/v1/memberships/${m.id}/resync_access)`);
  assert.match(envelope(err).request_id, /^req_/);
});

t('plans.calculateTax with the client\'s address object: 400 asking for country', async () => {
  const v = await makeVariant(app, seller.accountId, { price: 500 });
  const err = await rejects(sdk(app, seller.key).plans.calculateTax(v.id, { address: { country: 'DE' } }), BadRequestError, 400);
  assert.is(envelope(err).type, 'invalid_request');
  assert.is(envelope(err).param, 'country');
  assert.is(envelope(err).message, "The body field 'country' is required");
});

t('payments.create with an inline plan object: 400 naming plan (only plan_id or amount are taken)', async () => {
  const saved = await makeSavedMethod(app, seller.accountId);
  const err = await rejects(sdk(app, seller.key).payments.create({
    company_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId,
    plan: { currency: 'usd', initial_price: 5, plan_type: 'one_time' },
  }), BadRequestError, 400);
  assert.is(envelope(err).param, 'plan');
  assert.is(envelope(err).message, "Unknown body field 'plan' is not a recognised parameter");
  assert.is(await app.db('payments').where({ account_id: seller.accountId }).count('* as n').first().then((r) => Number(r!.n)), 0);
});

t('payments.retry of a collected payment: 400 invalid_state naming status and the allowed states', async () => {
  const v = await makeVariant(app, seller.accountId, { price: 500 });
  const { id } = await pay(app, seller, { plan_id: v.id });
  const err = await rejects(sdk(app, seller.key).payments.retry(id), BadRequestError, 400);
  assert.is(envelope(err).type, 'invalid_state');
  assert.is(envelope(err).param, 'status');
  assert.is(envelope(err).message, 'A payment whose status is succeeded cannot retry; allowed from: failed');
});

t.run();
