// Dunning: when a failed renewal payment is collected again. The schedule is data of the spec: the Membership state
// machine's schedules.renewal_retries in spec/areas/memberships.yaml (3, 5 and 7 days after the renewal fell due,
// Stripe's smart-retry convention), read here from the generated spec data and nowhere else.
import { specData } from '../../generated/spec-data.js';

const DAY_MS = 86_400_000;

export const RENEWAL_RETRY_DAYS: readonly number[] = specData.stateMachines.Membership.schedules.renewal_retries.days;

/** The next retry of a renewal that fell due at `periodStart`, strictly after `lastAttempt`; null when the schedule is
 * exhausted (the membership then expires). Anchored on the due instant, so a late or manual attempt never shifts the
 * schedule. */
export function nextRetryAt(periodStart: string | Date, lastAttempt: string | Date): Date | null {
  const start = new Date(periodStart).getTime();
  const after = new Date(lastAttempt).getTime();
  for (const days of RENEWAL_RETRY_DAYS) {
    const at = start + days * DAY_MS;
    if (at > after) return new Date(at);
  }
  return null;
}
