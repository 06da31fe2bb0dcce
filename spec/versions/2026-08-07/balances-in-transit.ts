// Before 2026-08-07 `pending` included funds in transit; there was no separate `in_transit`.
export function down(balance: any): any {
  if (balance.pending && balance.in_transit) {
    balance.pending = { ...balance.pending, amount: balance.pending.amount + balance.in_transit.amount };
  }
  return balance;
}
