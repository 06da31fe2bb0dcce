// Conversion without binary floats, so no cent is lost or made up in rounding: a payment's usd_total and swaps convert
// with one rate table (fx_rates, handlers/shared/fx-rates.ts), usd_total rounded half up to the cent in integer
// arithmetic, checked over every currency of the table against a reference written here on the rates' decimal text;
// percentages of promo codes (the older pins' amount_off, the head's percent_off) are read exactly.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { makeSeller, makeToken, pay, usd, VERSION } from '../payments/payment-fixtures.js';
import { usdMinorUnits } from '../../handlers/shared/fx-rates.js';

const t = suite('money: conversion to USD and percentages, exactly');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** ISO 4217 minor-unit exponents, stated here rather than read from the code under test; a currency added to the
 * rate table must be added here (the first test says so). */
const ISO_EXPONENT: Record<string, number> = { usd: 2, eur: 2, gbp: 2, cad: 2, aud: 2, nzd: 2, chf: 2, jpy: 0, krw: 0, vnd: 0, kwd: 3, bhd: 3 };

/** The rate table as the database states it: USD per unit as exact decimal text (PostgreSQL numeric). */
async function ratesAsText(): Promise<Map<string, string>> {
  const rows = await app.db.raw<{ rows: { currency: string; usd_per_unit: string }[] }>(
    'select currency, (usd_rate_e8::numeric * 0.00000001)::text as usd_per_unit from fx_rates order by currency');
  return new Map(rows.rows.map((r) => [r.currency, r.usd_per_unit]));
}

/** Minor units as decimal text in the major unit, from the integer's digits: 1550, 2 -> "15.50"; 7, 0 -> "7". */
function majorText(minor: number, exponent: number): string {
  const digits = String(minor).padStart(exponent + 1, '0');
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** The reference: amount x rate, both non-negative decimal texts, rounded half up to `places` decimals, as an
 * integer of 10^-places. Digit by digit: the exact product's digits up to the place, plus one when the first digit
 * dropped is 5 or more. */
function referenceProduct(amount: string, rate: string, places: number): bigint {
  const parse = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return { digits: BigInt(whole + fraction), scale: fraction.length };
  };
  const a = parse(amount);
  const r = parse(rate);
  const scale = a.scale + r.scale;
  const product = (a.digits * r.digits).toString();
  if (scale <= places) return BigInt(product + '0'.repeat(places - scale));
  const padded = product.padStart(scale + 1, '0');
  const kept = padded.slice(0, padded.length - (scale - places));
  const firstDropped = padded[padded.length - (scale - places)];
  return BigInt(kept) + (firstDropped >= '5' ? 1n : 0n);
}

const referenceUsd = (minor: number, currency: string, rates: Map<string, string>): number =>
  Number(referenceProduct(majorText(minor, ISO_EXPONENT[currency]), rates.get(currency)!, ISO_EXPONENT.usd));

const manualPayment = async (seller: Awaited<ReturnType<typeof makeSeller>>, amount: number, currency: string) =>
  (await pay(app, seller, { amount, currency }, { collect: false })).created;

t('usd_total of 15.50 GBP is 19.69 (19.685 rounded half up), and of 1493 JPY 10.00 (10.0031)', async () => {
  const s = await makeSeller(app.db);
  assert.equal((await manualPayment(s, 1550, 'gbp')).usd_total, usd(1969));
  assert.equal((await manualPayment(s, 1493, 'jpy')).usd_total, usd(1000));
  assert.equal((await manualPayment(s, 1, 'jpy')).usd_total, usd(1), '0.0067 rounds up to a cent');
  assert.equal(referenceUsd(1550, 'gbp', await ratesAsText()), 1969);
});

t('usd_total over every currency of the rate table equals the big-decimal reference (through POST /payments)', async () => {
  const rates = await ratesAsText();
  for (const currency of rates.keys()) assert.ok(currency in ISO_EXPONENT, `${currency}: add its ISO 4217 exponent to the test`);
  const s = await makeSeller(app.db);
  await fc.assert(fc.asyncProperty(fc.constantFrom(...rates.keys()), fc.integer({ min: 1, max: 99_999_999 }), async (currency, amount) => {
    const p = await manualPayment(s, amount, currency);
    assert.is(p.total.decimals, ISO_EXPONENT[currency], currency);
    assert.equal(p.usd_total, usd(referenceUsd(amount, currency, rates)), `${amount} ${currency}`);
  }), { numRuns: 30, examples: [['gbp', 1550], ['eur', 1050], ['cad', 150], ['jpy', 75], ['kwd', 1234], ['vnd', 25_000]] });
});

t('the conversion itself over every currency and amounts up to 10^13 minor units equals the reference', async () => {
  const rates = await ratesAsText();
  const e8 = new Map((await app.db('fx_rates').select('currency', 'usd_rate_e8')).map((r) => [r.currency as string, BigInt(r.usd_rate_e8)]));
  fc.assert(fc.property(fc.constantFrom(...rates.keys()), fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10_000_000_000_000 })), (currency, amount) => {
    assert.is(usdMinorUnits(amount, currency, e8.get(currency)!), referenceUsd(amount, currency, rates), `${amount} ${currency}`);
  }), { numRuns: 5_000 });
});

t('one rate table: a rate the operator changes moves swap quotes and usd_total alike', async () => {
  const s = await makeSeller(app.db);
  const quote = async () => {
    const res = await app.request('POST', '/swaps/quote', { token: s.key, version: VERSION, body: { from_token: 'GBP', to_token: 'USD', amount: '10.00' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  assert.is((await quote()).rate, '1.27000000');
  assert.equal((await manualPayment(s, 1000, 'gbp')).usd_total, usd(1270));
  // fx_rates is the operator's table (docs/areas/swaps.md); no API writes it, so the test does as the
  // operator would. Every server caches it and hears the change (migrations/495_fx_rates_cached.ts).
  await app.db('fx_rates').where({ currency: 'gbp' }).update({ usd_rate_e8: 125_500_000 }); // sql-state-write: fx_rates is the operator's table with no API or CLI to write it; the test does as the operator would
  try {
    assert.is((await quote()).rate, '1.25500000');
    assert.equal((await manualPayment(s, 1000, 'gbp')).usd_total, usd(1255));
    assert.equal((await manualPayment(s, 1001, 'gbp')).usd_total, usd(1256), '10.01 x 1.255 = 12.56255 -> 12.56');
  } finally {
    await app.db('fx_rates').where({ currency: 'gbp' }).update({ usd_rate_e8: 127_000_000 }); // sql-state-write: puts the operator's rate back (see above)
  }
});

t('a variant priced in a currency the processor does not charge is a 400 naming plan_id, not a 500', async () => {
  const s = await makeSeller(app.db);
  const product = await app.request('POST', '/products', { token: s.key, version: VERSION, body: { account_id: s.accountId, title: 'Won' } });
  const variant = await app.request('POST', '/variants', { token: s.key, version: VERSION,
    body: { account_id: s.accountId, product_id: product.body.id, plan_type: 'one_time', currency: 'krw', initial_price: 5000 } });
  assert.is(variant.status, 201, JSON.stringify(variant.body));
  const res = await app.request('POST', '/payments', { token: s.key, version: VERSION,
    body: { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: (await makeUser(app.db)).id, plan_id: variant.body.id } });
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.param, 'plan_id');
  assert.match(res.body.error.message, /does not charge krw/);
  const manual = await app.request('POST', '/payments', { token: s.key, version: VERSION,
    body: { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: (await makeUser(app.db)).id, amount: 5000, currency: 'krw' } });
  assert.is(manual.status, 400, JSON.stringify(manual.body));
  assert.is(manual.body.error.param, 'currency');
});

const LEGACY_PIN = '2026-07-20';

t('older pins: a percentage amount_off of 0.07, 1.1 or 1.13 is accepted exactly and discounts by its basis points', async () => {
  const s = await makeSeller(app.db);
  const product = await app.request('POST', '/products', { token: s.key, version: VERSION, body: { account_id: s.accountId, title: 'Course' } });
  const variant = await app.request('POST', '/variants', { token: s.key, version: VERSION,
    body: { account_id: s.accountId, product_id: product.body.id, plan_type: 'one_time', initial_price: 100_000 } });
  assert.is(variant.status, 201, JSON.stringify(variant.body));
  const create = (code: string, amount: number) => app.request('POST', '/promo_codes', { token: s.key, version: LEGACY_PIN,
    body: { company_id: s.accountId, code, promo_type: 'percentage', amount_off: amount, unlimited_stock: true } });
  for (const [code, percent, discount] of [['SEVEN', 0.07, 70], ['ONEONE', 1.1, 1_100], ['ONETHIRTEEN', 1.13, 1_130], ['HALF', 0.5, 500], ['ALL', 100, 100_000]] as const) {
    const created = await create(code, percent);
    assert.is(created.status, 201, `${percent}: ${JSON.stringify(created.body)}`);
    assert.is(created.body.amount_off, percent);
    assert.is((await app.request('GET', `/promo_codes/${created.body.id}`, { token: s.key, version: VERSION })).body.percent_off, percent);
    if (discount >= 100_000) continue; // a code that takes everything leaves nothing to charge (400, tested in payments)
    const { created: payment } = await pay(app, s, { plan_id: variant.body.id, promo_code: code }, { collect: false });
    assert.equal(payment.discount_amount, usd(discount), code);
  }
  for (const refused of [1.131, 0.001, 100.01, 33.333]) {
    const res = await create(`NO${String(refused).replace('.', '_')}`, refused);
    assert.is(res.status, 400, `${refused}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error.param, 'amount_off');
  }
});

t('the head: percent_off has at most two decimals, exactly (1.1300000001 is refused, 0.07 and 1.13 accepted)', async () => {
  const s = await makeSeller(app.db);
  const create = (code: string, percent: number) => app.request('POST', '/promo_codes', { token: s.key, version: VERSION,
    body: { account_id: s.accountId, code, percent_off: percent } });
  for (const [code, percent] of [['HSEVEN', 0.07], ['HONETHIRTEEN', 1.13], ['HONEONE', 1.1]] as const) {
    const res = await create(code, percent);
    assert.is(res.status, 201, `${percent}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.percent_off, percent);
  }
  for (const percent of [1.1300000001, 12.345]) {
    const res = await create(`HNO${String(percent).length}`, percent);
    assert.is(res.status, 400, `${percent}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error.param, 'percent_off');
  }
});

t.run();
