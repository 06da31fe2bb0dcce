// Before 2026-09-02 there was no weekly Economic Intelligence offer: older callers never see it.
export function down(account: any): any {
  if (Array.isArray(account.economic_intelligence_offers)) {
    account.economic_intelligence_offers = account.economic_intelligence_offers.filter((o: { key?: string }) => o.key !== 'weekly');
  }
  return account;
}
