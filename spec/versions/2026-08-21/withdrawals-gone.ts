// Before 2026-08-21 a payout request (POST /withdrawals, POST /payouts) could carry its idempotency key in the body:
// it acts as the Idempotency-Key header (which wins when both are sent: runtime/operation.ts).
export function up(input: { body: Record<string, unknown>; idempotencyKey?: string }): void {
  const key = input.body.idempotency_key;
  if (typeof key === 'string') input.idempotencyKey = key;
  delete input.body.idempotency_key;
}
