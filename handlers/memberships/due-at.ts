// memberships.due_at (migrations/530_membership_lifecycle.ts): the instant of a membership's next timed step, which
// the period sweep finds it by (period-sweep.ts). Every write of a membership's status or period end sets it.
import type { MembershipRow } from '../../generated/rows.js';

/**
 * A trialing or active membership is next due at its period end (a renewal charge, a scheduled cancellation, an
 * expiry or a completion: period-step.ts decides which). A past_due one is due at its next retry, which the failed
 * payment's outcome writes (renewal-outcome.ts); paused and ended memberships are never due.
 */
export function dueAtOf(status: string, currentPeriodEnd: string | Date | null): string | Date | null {
  return status === 'trialing' || status === 'active' ? currentPeriodEnd : null;
}

export const dueAtOfRow = (row: MembershipRow) => dueAtOf(row.status, row.current_period_end);
