// Before native promo codes (2026-08-07) one amount_off carried either discount, told apart by promo_type (a
// percentage, or a decimal in the currency's major unit), and the limit was stock / unlimited_stock with uses.
import { decimalAmount } from '../../../runtime/decimal-money.js';

export function down(code: any): any {
  const percentage = code.percent_off !== null && code.percent_off !== undefined;
  code.promo_type = percentage ? 'percentage' : 'flat_amount';
  code.currency = percentage ? null : code.amount_off?.currency ?? null;
  code.amount_off = percentage ? code.percent_off : code.amount_off ? decimalAmount(code.amount_off) : null;
  code.unlimited_stock = code.max_redemptions === null;
  code.stock = code.max_redemptions ?? 0;
  code.uses = code.redemptions;
  delete code.percent_off;
  delete code.max_redemptions;
  delete code.redemptions;
  return code;
}
