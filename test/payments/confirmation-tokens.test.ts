import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, makeSeller, VERSION } from './payment-fixtures.js';
import { skip } from '../helpers/skip.js';

const t = suite('POST /confirmation_tokens');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const card = (number: string, extra: Record<string, unknown> = {}) =>
  ({ card: { number, exp_month: 12, exp_year: 2030, cvc: '123', ...extra } });

t('a client id creates a single-use token; only safe card facts are kept', async () => {
  const s = await makeSeller(app.db);
  const res = await app.request('POST', '/confirmation_tokens', { token: s.clientId, version: VERSION, body: card(CARDS.succeeds) });
  assert.is(res.status, 201);
  assert.match(res.body.id, /^ctok_/);
  assert.equal(res.body.card, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  const ttl = Date.parse(res.body.expires_at) - Date.now();
  assert.ok(ttl > 59 * 60_000 && ttl <= 60 * 60_000, `expires in an hour, got ${ttl}`);
  const row = await app.db('confirmation_tokens').where({ id: res.body.id }).first();
  assert.is(row.account_id, s.accountId);
  assert.is(row.test_behaviour, 'succeeds');
  assert.is(row.fingerprint.length, 64);
  assert.not.ok(JSON.stringify(row).includes(CARDS.succeeds), 'the full number is never stored');
  assert.not.ok(Object.keys(row).some((k) => k.includes('cvc')));
});

t('brand comes from the number; the sandbox behaviour from the test card', async () => {
  const s = await makeSeller(app.db);
  const cases: Array<[string, string | null, string]> = [
    ['5555555555554444', 'mastercard', 'succeeds'],
    ['378282246310005', 'amex', 'succeeds'],
    ['6011111111111117', 'discover', 'succeeds'],
    [CARDS.declined, 'visa', 'declined'],
    [CARDS.challenge, 'visa', 'requires_3ds_challenge'],
    ['9999999999999995', null, 'succeeds'],
  ];
  for (const [number, brand, behaviour] of cases) {
    const res = await app.request('POST', '/confirmation_tokens', { token: s.clientId, version: VERSION, body: card(number) });
    assert.is(res.status, 201, number);
    assert.is(res.body.card.brand, brand, number);
    const row = await app.db('confirmation_tokens').where({ id: res.body.id }).first();
    assert.is(row.test_behaviour, behaviour, number);
  }
});

t('a number failing the Luhn check is a 400 naming card.number', async () => {
  const s = await makeSeller(app.db);
  const res = await app.request('POST', '/confirmation_tokens', { token: s.clientId, version: VERSION, body: card('4242424242424241') });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'card.number');
});

t('an expired card is a 400 naming the expiry field', async () => {
  const s = await makeSeller(app.db);
  const past = await app.request('POST', '/confirmation_tokens', { token: s.clientId, version: VERSION, body: card(CARDS.succeeds, { exp_year: 2020 }) });
  assert.is(past.status, 400);
  assert.is(past.body.error.param, 'card.exp_year');
});

t('a card that expired earlier this year is a 400 naming the expiry month', async () => {
  const s = await makeSeller(app.db);
  const now = new Date();
  if (now.getUTCMonth() === 0) return skip('in January no month of this year has passed yet');
  const lastMonth = await app.request('POST', '/confirmation_tokens', {
    token: s.clientId, version: VERSION, body: card(CARDS.succeeds, { exp_year: now.getUTCFullYear(), exp_month: now.getUTCMonth() }),
  });
  assert.is(lastMonth.status, 400);
  // Had the server's clock passed a New Year since the test read its own, the card's whole year would have passed.
  const answeredYear = new Date(lastMonth.headers.get('date')!).getUTCFullYear();
  const expected = answeredYear === now.getUTCFullYear() ? ['card.exp_month'] : ['card.exp_month', 'card.exp_year'];
  assert.ok(expected.includes(lastMonth.body.error.param), lastMonth.body.error.param);
});

t('a missing cvc or a non-digit number is refused by the schema', async () => {
  const s = await makeSeller(app.db);
  const noCvc = await app.request('POST', '/confirmation_tokens', {
    token: s.clientId, version: VERSION, body: { card: { number: CARDS.succeeds, exp_month: 1, exp_year: 2030 } },
  });
  assert.is(noCvc.status, 400);
  assert.is(noCvc.body.error.param, 'card.cvc');
  const letters = await app.request('POST', '/confirmation_tokens', { token: s.clientId, version: VERSION, body: card('4242-4242-4242-4242') });
  assert.is(letters.status, 400);
  assert.is(letters.body.error.param, 'card.number');
});

t('API keys and user tokens are refused (403); an unknown client id is a 401', async () => {
  const s = await makeSeller(app.db);
  const key = await app.request('POST', '/confirmation_tokens', { token: s.key, version: VERSION, body: card(CARDS.succeeds) });
  assert.is(key.status, 403);
  assert.is(key.body.error.type, 'permission_denied');
  const user = await app.request('POST', '/confirmation_tokens', { token: s.token, version: VERSION, body: card(CARDS.succeeds) });
  assert.is(user.status, 403);
  const unknown = await app.request('POST', '/confirmation_tokens', { token: 'client_nope', version: VERSION, body: card(CARDS.succeeds) });
  assert.is(unknown.status, 401);
  assert.is(unknown.body.error.type, 'authentication_required');
});

t.run();
