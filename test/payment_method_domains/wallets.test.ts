// Wallet payment methods over HTTP: offered at checkout (GET /checkout_configurations/{id}/payment_methods), tokenised
// (POST /confirmation_tokens) and charged (POST /payments) only on a verified payment method domain of the account;
// the sandbox processor collects a wallet payment like a card's, without a 3-D Secure step (the wallet's device
// authentication stands for it).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { CARDS, collect, get, makeSeller, VERSION } from '../payments/payment-fixtures.js';
import { verifyPaymentMethodDomain } from '../../handlers/payment_method_domains/verification.js';

const t = suite('wallet payment methods');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Seller = Awaited<ReturnType<typeof makeSeller>>;

/** A hostname registered by the seller; verified (its DNS proof published and checked) unless `verify` is false. */
async function domainOf(s: Seller, domain: string, verify = true) {
  const res = await app.request('POST', '/payment_method_domains', { token: s.key, version: VERSION, body: { account_id: s.accountId, domain } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  if (verify) {
    await app.request('POST', `/sandbox/payment_method_domains/${res.body.id}/publish_proof`, { token: s.key, version: VERSION, body: {} });
    await verifyPaymentMethodDomain(app.db, res.body.id);
  }
  return res.body.id as string;
}

const checkout = async (s: Seller) => {
  const res = await app.request('POST', '/checkout_configurations', { token: s.key, version: VERSION, body: { account_id: s.accountId, mode: 'setup' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
};

const offered = (s: Seller, id: string, domain: string, token = s.clientId) =>
  app.request('GET', `/checkout_configurations/${id}/payment_methods?domain=${encodeURIComponent(domain)}`, { token, version: VERSION });

const walletToken = (s: Seller, body: Record<string, unknown>, number = CARDS.succeeds) => app.request('POST', '/confirmation_tokens', {
  token: s.clientId, version: VERSION, body: { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' }, ...body },
});

const charge = async (s: Seller, ctok: string) => app.request('POST', '/payments', {
  token: s.key, version: VERSION, body: { account_id: s.accountId, confirmation_token: ctok, user_id: (await makeUser(app.db)).id, amount: 2500, currency: 'usd' },
});

t('a checkout offers wallets only on a verified payment method domain of its account', async () => {
  const s = await makeSeller(app.db);
  const id = await checkout(s);
  await domainOf(s, 'pay.example.com');
  await domainOf(s, 'pending.example.com', false);
  const verified = await offered(s, id, 'Pay.Example.com');
  assert.is(verified.status, 200, JSON.stringify(verified.body));
  assert.equal(verified.body, {
    object: 'checkout_payment_methods', checkout_configuration_id: id, domain: 'pay.example.com',
    payment_method_types: ['card', 'apple_pay', 'google_pay'], wallets_unavailable_reason: null,
  });
  const pending = await offered(s, id, 'pending.example.com');
  assert.equal(pending.body.payment_method_types, ['card']);
  assert.match(pending.body.wallets_unavailable_reason, /'pending\.example\.com' is still pending/);
  const unknown = await offered(s, id, 'shop.example.org');
  assert.equal(unknown.body.payment_method_types, ['card']);
  assert.match(unknown.body.wallets_unavailable_reason, /not registered for this account/);
  // Another account's verified hostname is not this account's.
  const other = await makeSeller(app.db);
  await domainOf(other, 'other.example.com');
  assert.equal((await offered(s, id, 'other.example.com')).body.payment_method_types, ['card']);
  // A malformed hostname names domain; another account's configuration is a 404; an API key is refused.
  const bad = await offered(s, id, 'https://pay.example.com');
  assert.equal([bad.status, bad.body.error.param], [400, 'domain']);
  assert.is((await offered(other, id, 'other.example.com', other.clientId)).status, 404);
  assert.is((await offered(s, id, 'pay.example.com', s.key)).status, 403);
});

t('a wallet token is refused off a verified domain (400 naming domain), and writes nothing', async () => {
  const s = await makeSeller(app.db);
  await domainOf(s, 'pending.example.com', false);
  const before = await app.db('confirmation_tokens').where({ account_id: s.accountId }).count<{ count: string }[]>();
  for (const [body, pattern] of [
    [{ payment_method_type: 'apple_pay' }, /needs domain/],
    [{ payment_method_type: 'apple_pay', domain: 'pending.example.com' }, /Apple Pay can be used only on a verified payment method domain: 'pending\.example\.com' is still pending/],
    [{ payment_method_type: 'google_pay', domain: 'nowhere.example.com' }, /Google Pay can be used only .* not registered/],
    [{ payment_method_type: 'google_pay', domain: '10.0.0.1' }, /domain must be a hostname/],
  ] as const) {
    const res = await walletToken(s, body);
    assert.equal([res.status, res.body.error?.param], [400, 'domain'], JSON.stringify(res.body));
    assert.match(res.body.error.message, pattern);
  }
  assert.equal(await app.db('confirmation_tokens').where({ account_id: s.accountId }).count(), before);
  // A card ignores domain.
  const card = await walletToken(s, { domain: 'nowhere.example.com' });
  assert.equal([card.status, card.body.payment_method_type, card.body.domain], [201, 'card', null]);
});

t('an Apple Pay payment on a verified domain: tokenised, collected by the sandbox processor, no 3-D Secure step', async () => {
  const s = await makeSeller(app.db);
  await domainOf(s, 'pay.example.com');
  // The card would ask for 3-D Secure by hand; the wallet authenticated the buyer on the device.
  const token = await walletToken(s, { payment_method_type: 'apple_pay', domain: 'PAY.example.com' }, CARDS.threeDSecure);
  assert.is(token.status, 201, JSON.stringify(token.body));
  assert.equal([token.body.payment_method_type, token.body.domain, token.body.card.last4], ['apple_pay', 'pay.example.com', '3155']);
  const res = await charge(s, token.body.id);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.status, res.body.payment_method_type, res.body.next_action], ['processing', 'apple_pay', null]);
  await collect(app, res.body.id);
  const paid = await get(app, s.key, res.body.id);
  assert.equal([paid.status, paid.payment_method_type, paid.payment_instrument.last4], ['succeeded', 'apple_pay', '3155']);
  // A declining card declines through the wallet too.
  const declining = await walletToken(s, { payment_method_type: 'google_pay', domain: 'pay.example.com' }, CARDS.declined);
  const failed = await charge(s, declining.body.id);
  await collect(app, failed.body.id);
  assert.equal([(await get(app, s.key, failed.body.id)).status, (await get(app, s.key, failed.body.id)).failure_code], ['failed', 'card_declined']);
  // A card payment says card.
  const card = await walletToken(s, {});
  const byCard = await charge(s, card.body.id);
  assert.is(byCard.body.payment_method_type, 'card');
});

t('a wallet payment whose domain is no longer verified is refused (400 naming confirmation_token), the token unspent', async () => {
  const s = await makeSeller(app.db);
  const domainId = await domainOf(s, 'pay.example.com');
  const token = await walletToken(s, { payment_method_type: 'google_pay', domain: 'pay.example.com' });
  assert.is(token.status, 201);
  const deleted = await app.request('DELETE', `/payment_method_domains/${domainId}`, { token: s.key, version: VERSION });
  assert.is(deleted.status, 200, JSON.stringify(deleted.body));
  const payments = await app.db('payments').where({ account_id: s.accountId }).count();
  const res = await charge(s, token.body.id);
  assert.equal([res.status, res.body.error?.param], [400, 'confirmation_token'], JSON.stringify(res.body));
  assert.match(res.body.error.message, /Google Pay can be used only on a verified payment method domain: 'pay\.example\.com' is not registered/);
  assert.equal(await app.db('payments').where({ account_id: s.accountId }).count(), payments);
  assert.is((await app.db('confirmation_tokens').where({ id: token.body.id }).first()).used_at, null);
  // Registered and verified again, the same token pays.
  await domainOf(s, 'pay.example.com');
  const again = await charge(s, token.body.id);
  assert.equal([again.status, again.body.payment_method_type], [201, 'google_pay']);
});

t.run();
