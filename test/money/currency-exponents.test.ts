// Every currency's minor units at its ISO 4217 exponent (runtime/money.ts): 1.234 KWD is 1234 fils and shows
// decimals 3, JPY and VND show 0, at the latest version (money objects) and at an older pin that writes decimal
// amounts (2026-07-20); over every currency a client may send, decimal text in -> minor units -> decimal text out
// is exact.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { makeSeller, makeToken, VERSION } from '../payments/payment-fixtures.js';

const t = suite('money: minor units at each currency\'s ISO 4217 exponent');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
});
t.after(async () => { await app.close(); });

const LEGACY_PIN = '2026-07-20';

/** ISO 4217 (list one) exponents other than 2, stated here rather than read from the code under test. */
const ISO_NOT_TWO: Record<string, number> = {
  bif: 0, clp: 0, djf: 0, gnf: 0, isk: 0, jpy: 0, kmf: 0, krw: 0, pyg: 0, rwf: 0, ugx: 0, uyi: 0, vnd: 0, vuv: 0, xaf: 0,
  xof: 0, xpf: 0, bhd: 3, iqd: 3, jod: 3, kwd: 3, lyd: 3, omr: 3, tnd: 3, clf: 4, uyw: 4,
};
const exponentOf = (currency: string) => ISO_NOT_TWO[currency] ?? 2;

/** The official client's Currency (whop-sdk-contract.md, Appendix A) that the API's currency pattern ^[a-z]{3}$
 * admits (usdt and whop_usd it refuses), and every ISO currency whose exponent is not 2. */
const CLIENT_CURRENCIES = ('usd sgd inr aud brl cad dkk eur nok gbp sek chf hkd huf jpy mxn myr pln czk nzd aed eth ape cop ron thb bgn '
  + 'idr dop php try krw twd vnd pkr clp uyu ars zar dzd tnd mad kes kwd jod all xcd amd bsd bhd bob bam khr crc xof egp etb gmd '
  + 'ghs gtq gyd ils jmd mop mga mur mdl mnt nad ngn mkd omr pyg pen qar rwf sar rsd lkr tzs ttd uzs rub btc cny kzt awg xau').split(' ');
const CURRENCIES = [...new Set([...CLIENT_CURRENCIES, ...Object.keys(ISO_NOT_TWO)])];

const moneyOf = (amount: number, currency: string) =>
  ({ amount, currency, decimals: exponentOf(currency), display_decimals: exponentOf(currency) });

/** Minor units as decimal text with every place of the exponent: 1230, 3 -> "1.230". */
function decimalText(minor: number, exponent: number): string {
  const digits = String(minor).padStart(exponent + 1, '0');
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
/** The same number's shortest text, as JSON writes it: "1.230" -> "1.23", "5.00" -> "5". */
const shortest = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

async function variantIn(currency: string, price: number, version = VERSION) {
  const account = version === VERSION ? { account_id: seller.accountId } : { company_id: seller.accountId };
  const product = await app.request('POST', '/products', { token: seller.key, version, body: { ...account, title: `Priced in ${currency}` } });
  assert.ok(product.status === 200 || product.status === 201, JSON.stringify(product.body));
  const variant = await app.request('POST', '/variants', { token: seller.key, version,
    body: { ...account, product_id: product.body.id, plan_type: 'one_time', currency, initial_price: price } });
  assert.ok(variant.status === 200 || variant.status === 201, JSON.stringify(variant.body));
  return variant.body;
}

t('a variant in KWD shows 3 decimals, in JPY and VND 0, at the latest version and at 2026-07-20', async () => {
  for (const version of [VERSION, LEGACY_PIN]) {
    for (const [currency, price] of [['kwd', 1234], ['jpy', 1500], ['vnd', 25_000], ['bhd', 5], ['usd', 1043]] as const) {
      const variant = await variantIn(currency, price, version);
      assert.equal(variant.initial_price, moneyOf(price, currency), `${currency} at ${version}`);
      const read = await app.request('GET', `/variants/${variant.id}`, { token: seller.key, version });
      assert.equal(read.body.initial_price, moneyOf(price, currency), `${currency} read at ${version}`);
    }
  }
});

t('a payment in KWD: 1234 fils at the latest version, 1.234 KWD at 2026-07-20 (1.2345 is refused), usd_total exact', async () => {
  const variant = await variantIn('kwd', 1234);
  const buyer = (await makeUser(app.db)).id;
  const bought = await app.request('POST', '/payments', { token: seller.key, version: VERSION,
    body: { account_id: seller.accountId, confirmation_token: await makeToken(app, seller.clientId), user_id: buyer, plan_id: variant.id } });
  assert.is(bought.status, 201, JSON.stringify(bought.body));
  assert.equal(bought.body.total, moneyOf(1234, 'kwd'));
  // 1.234 KWD at 3.26 USD = 4.02284 USD -> 4.02
  assert.equal(bought.body.usd_total, moneyOf(402, 'usd'));

  const charge = async (amount: number, currency: string) => app.request('POST', '/payments', { token: seller.key, version: LEGACY_PIN,
    body: { company_id: seller.accountId, confirmation_token: await makeToken(app, seller.clientId), user_id: buyer, amount, currency } });
  const fils = await charge(1.234, 'kwd');
  assert.is(fils.status, 200, JSON.stringify(fils.body));
  assert.is(fils.body.total, 1.234);
  assert.is(fils.body.usd_total, 4.02);
  const head = await app.request('GET', `/payments/${fils.body.id}`, { token: seller.key, version: VERSION });
  assert.equal(head.body.total, moneyOf(1234, 'kwd'));
  for (const [amount, currency] of [[1.2345, 'kwd'], [25_000.5, 'vnd'], [12.5, 'jpy']] as const) {
    const refused = await charge(amount, currency);
    assert.is(refused.status, 400, `${amount} ${currency}: ${JSON.stringify(refused.body)}`);
    assert.is(refused.body.error.param, 'amount', `${amount} ${currency}`);
  }
  const dong = await charge(25_000, 'vnd');
  assert.is(dong.status, 200, JSON.stringify(dong.body));
  assert.is(dong.body.total, 25_000);
  assert.equal((await app.request('GET', `/payments/${dong.body.id}`, { token: seller.key, version: VERSION })).body.total, moneyOf(25_000, 'vnd'));
});

t('every currency a client may send: decimal text -> minor units -> decimal text, exactly (promo codes at 2026-07-20)', async () => {
  let n = 0;
  const roundTrip = async (currency: string, minor: number) => {
    const exponent = exponentOf(currency);
    const text = decimalText(minor, exponent);
    const code = `R${++n}`;
    // The decimal text as the client wrote it, trailing zeros and all: the body is sent as text.
    const created = await app.request('POST', '/promo_codes', { token: seller.key, version: LEGACY_PIN, headers: { 'content-type': 'application/json' },
      rawBody: `{"company_id":"${seller.accountId}","code":"${code}","promo_type":"flat_amount","amount_off":${text},"base_currency":"${currency}","unlimited_stock":true}` });
    assert.is(created.status, 201, `${text} ${currency}: ${JSON.stringify(created.body)}`);
    assert.is(JSON.stringify(created.body.amount_off), shortest(text), `${text} ${currency} back as decimal text`);
    assert.is(created.body.currency, currency);
    const head = await app.request('GET', `/promo_codes/${created.body.id}`, { token: seller.key, version: VERSION });
    assert.equal(head.body.amount_off, moneyOf(minor, currency), `${text} ${currency} in minor units`);
  };
  // amount_off is at least 0.01 and at most 10^11 minor units.
  const minorIn = (currency: string) =>
    fc.integer({ min: 10 ** Math.max(0, exponentOf(currency) - 2), max: Math.min(100_000_000_000, 10 ** (exponentOf(currency) + 9)) });
  await fc.assert(fc.asyncProperty(fc.constantFrom(...CURRENCIES).chain((c) => fc.tuple(fc.constant(c), minorIn(c))),
    ([currency, minor]) => roundTrip(currency, minor)), {
    numRuns: 25,
    // every currency once, at an amount with every place of its exponent in use
    examples: CURRENCIES.map((c) => [[c, Number(`1${'234567'.slice(0, exponentOf(c))}`) + 10 ** (exponentOf(c) + 2)]] as [[string, number]]),
  });
});

t.run();
