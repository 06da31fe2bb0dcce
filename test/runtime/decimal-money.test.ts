// Older versions' decimal money converts both ways exactly: no amount is off by a binary-float cent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { decimalAmount, minorUnits } from '../../runtime/decimal-money.js';

const t = suite('runtime: decimal money');

const exactText = (amount: number, decimals: number) => {
  if (decimals === 0) return String(amount);
  const digits = String(amount).padStart(decimals + 1, '0');
  const text = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`.replace(/\.?0+$/, '');
  return text || '0';
};

t('minor units -> decimal number prints the exact decimal, and converts back to the same minor units', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.constantFrom(0, 2), (amount, decimals) => {
    const decimal = decimalAmount({ amount, decimals });
    assert.is(JSON.stringify(decimal), exactText(amount, decimals));
    assert.is(minorUnits(decimal, decimals), amount);
  }), { seed: 20261123, numRuns: 2000 });
});

t('values that float arithmetic gets wrong are exact', () => {
  assert.is(minorUnits(10.43, 2), 1043);
  assert.is(minorUnits(0.29, 2), 29); // 0.29 * 100 = 28.999999999999996
  assert.is(minorUnits(1.005, 3), 1005);
  assert.is(minorUnits(4.35, 2), 435); // 4.35 * 100 = 434.99999999999994
  assert.is(decimalAmount({ amount: 1043, decimals: 2 }), 10.43);
  assert.is(minorUnits('1e2', 2), 10000);
  assert.is(minorUnits(1e-7, 2), null);
});

t('more decimal places than the currency, non-finite and unsafe values are refused', () => {
  assert.is(minorUnits(10.431, 2), null);
  assert.is(minorUnits(12.5, 0), null);
  assert.is(minorUnits(Number.POSITIVE_INFINITY, 2), null);
  assert.is(minorUnits(Number.NaN, 2), null);
  assert.is(minorUnits(1e300, 2), null);
  assert.is(minorUnits('12.', 2), null);
  assert.is(minorUnits(10.40, 2), 1040);
});

t.run();
