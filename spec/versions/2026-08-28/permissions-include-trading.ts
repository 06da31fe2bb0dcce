// Before 2026-08-28 permission checks did not include the trading actions.
const TRADING = new Set(['crypto_wallet:trade', 'crypto_wallet:trade:read']);

export function down(list: any): any {
  if (Array.isArray(list.data)) list.data = list.data.filter((p: { action?: string }) => !TRADING.has(String(p.action)));
  return list;
}
