// Before native payments (2026-08-21) partial_amount was a decimal in the payment currency's major unit (10.43).
// Its exact text goes to the handler, which knows the currency and converts it without float arithmetic.
export function up(input: { body: Record<string, unknown> }): void {
  const amount = input.body.partial_amount;
  delete input.body.partial_amount;
  if (typeof amount === 'number') input.body.partial_amount_decimal = String(amount);
}
