// Before 2026-08-21 a payout's amount was a number in the major unit (25.5), and the idempotency key could come in
// the body. The number becomes the decimal string the handler parses (its shortest text: exact for what a client
// meant by 25.5); the body key acts as the Idempotency-Key header when that is absent.
import { up as bodyIdempotencyKey } from './withdrawals-gone.js';

export function up(input: { body: Record<string, unknown>; idempotencyKey?: string }): void {
  const { amount } = input.body;
  if (typeof amount === 'number') input.body.amount = String(amount);
  bodyIdempotencyKey(input);
  // A stablecoin payout requested before status v2 is a stablecoin conversion request (cofr_).
  input.body.conversion_request = true;
}
