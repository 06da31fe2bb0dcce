// Before 2026-07-22 a user's wallet was `total_usd` (a decimal string of its USD funds) and `balances` (one row per
// currency, amounts as decimal strings) rather than a nested `balance` object; both null when the caller is not the
// user. Amounts are formatted from integers, never through floats.
import { decimalText } from '../../../runtime/decimal-money.js';

interface MoneyLike { amount: number; decimals: number }
interface CurrencyRow { currency: string; available: MoneyLike; pending: MoneyLike; in_transit?: MoneyLike }

const NAMES: Record<string, string> = { usd: 'US Dollar', eur: 'Euro', gbp: 'British Pound', cad: 'Canadian Dollar', aud: 'Australian Dollar', jpy: 'Japanese Yen' };

const totalOf = (row: CurrencyRow): MoneyLike => ({
  amount: row.available.amount + row.pending.amount + (row.in_transit?.amount ?? 0), decimals: row.available.decimals,
});

export function down(user: any): any {
  const balance = user.balance as { currencies: CurrencyRow[] } | null;
  delete user.balance;
  if (!balance) {
    user.total_usd = null;
    user.balances = null;
    return user;
  }
  const usd = balance.currencies.find((c) => c.currency === 'usd');
  user.total_usd = usd ? decimalText(totalOf(usd)) : '0.00';
  user.balances = balance.currencies.map((c) => {
    const total = decimalText(totalOf(c));
    return {
      symbol: c.currency.toUpperCase(),
      name: NAMES[c.currency] ?? c.currency.toUpperCase(),
      balance: total,
      value_usd: c.currency === 'usd' ? total : null,
      price_usd: c.currency === 'usd' ? 1 : null,
      icon_url: null,
      breakdown: { available: decimalText(c.available), pending: decimalText({ amount: c.pending.amount + (c.in_transit?.amount ?? 0), decimals: c.pending.decimals }) },
    };
  });
  return user;
}
