// Older API versions wrote money as decimal numbers in the currency's major unit (10.43 for 1043 cents). Both
// directions are exact: no binary float arithmetic touches an amount.

/** A money object's amount as a decimal number: 1043 with 2 decimals -> 10.43. IEEE division is correctly
 * rounded and 10 ** decimals is exact, so the result is the double nearest 10.43: the one "10.43" parses to. */
export function decimalAmount(m: { amount: number; decimals: number }): number {
  return m.amount / 10 ** m.decimals;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** A decimal amount in major units (a JSON number or its text) -> integer minor units, read from its shortest
 * decimal text rather than multiplied as a float. null when it is not a finite number, has more decimal places
 * than the currency (10.431 in a 2-decimal currency), or exceeds the safe integer range. */
export function minorUnits(value: number | string, decimals: number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const fraction = m[3] ?? '';
  let digits = m[2] + fraction;
  // value = digits x 10^-scale; in minor units, digits x 10^(decimals - scale)
  const shift = decimals - (fraction.length - Number(m[4] ?? 0));
  if (shift >= 0) {
    digits += '0'.repeat(shift);
  } else {
    if (-shift > digits.length ? /[^0]/.test(digits) : /[^0]/.test(digits.slice(digits.length + shift))) return null;
    digits = digits.slice(0, Math.max(0, digits.length + shift)) || '0';
  }
  const minor = BigInt(digits);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return (m[1] ? -1 : 1) * Number(minor);
}

/** A money object's amount as exact decimal text in the major unit: 1043 with 2 decimals -> "10.43", -5 -> "-0.05".
 * Built from the integer's digits, never by float division. */
export function decimalText(m: { amount: number; decimals: number }): string {
  const digits = Math.abs(m.amount).toString().padStart(m.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - m.decimals);
  const fraction = m.decimals > 0 ? `.${digits.slice(digits.length - m.decimals)}` : '';
  return `${m.amount < 0 ? '-' : ''}${whole}${fraction}`;
}
