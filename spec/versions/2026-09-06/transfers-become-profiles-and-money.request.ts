// Before 2026-09-06 (entry 3) a transfer's amount was a decimal in the currency's major unit (10.43); currency
// defaults to usd, as it does now, so the conversion uses the same default.
import { minorAmount } from '../../../handlers/shared/money.js';

export function up(input: { body: Record<string, unknown> }): void {
  const { amount, currency } = input.body;
  if (typeof amount === 'number') input.body.amount = minorAmount(amount, typeof currency === 'string' ? currency : 'usd', 'amount');
}
