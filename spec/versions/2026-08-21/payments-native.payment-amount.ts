// Before native payments (2026-08-21) a charge's amount was a decimal in the currency's major unit (10.43); the
// body names the currency, so it converts to minor units here, exactly.
import { minorAmount } from '../../../handlers/shared/money.js';

export function up(input: { body: Record<string, unknown> }): void {
  const { amount, currency } = input.body;
  if (typeof amount === 'number' && typeof currency === 'string') input.body.amount = minorAmount(amount, currency, 'amount');
}
