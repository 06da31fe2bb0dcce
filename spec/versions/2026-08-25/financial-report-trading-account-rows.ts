// Before 2026-08-25 (entry 25) a report had one topup row where it now has trading_account_deposit and its offset,
// and one onchain_withdrawal row for trading_account_withdrawal and its offset: their counts and amounts are summed.
const OLDER: Record<string, string> = {
  trading_account_deposit: 'topup',
  trading_account_deposit_offset: 'topup',
  trading_account_withdrawal: 'onchain_withdrawal',
  trading_account_withdrawal_offset: 'onchain_withdrawal',
};
const AMOUNTS = ['net', 'available', 'pending', 'in_transit', 'held', 'fees'];

export function down(currency: any): any {
  const rows = new Map<string, any>();
  for (const row of currency.rows ?? []) {
    const type = OLDER[row.type] ?? row.type;
    const seen = rows.get(type);
    if (!seen) {
      rows.set(type, { ...row, type });
      continue;
    }
    seen.count += row.count;
    for (const k of AMOUNTS) seen[k] = { ...seen[k], amount: seen[k].amount + row[k].amount };
  }
  currency.rows = [...rows.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return currency;
}
