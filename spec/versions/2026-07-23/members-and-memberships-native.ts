// Before 2026-07-23 a cancel said how with cancellation_mode, and without one it cancelled at the period end; from
// then on cancel_at_period_end says it, and without it access ends at once (entry 53).
export function up(input: { body: Record<string, unknown> }): void {
  const mode = input.body.cancellation_mode;
  delete input.body.cancellation_mode;
  input.body.cancel_at_period_end = mode !== 'immediate';
}
