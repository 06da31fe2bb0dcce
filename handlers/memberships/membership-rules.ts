// Rules of the Membership lifecycle that do not change the status. Scheduling or reversing a cancellation and
// extending are allowed exactly when cancel is (the membership is live), as memberships.yaml declares.
import { ApiError } from '../../runtime/errors.js';
import { canTransition } from '../../generated/state-machine.js';
import { specData } from '../../generated/spec-data.js';
import type { MembershipRow } from '../../generated/rows.js';

const LIVE = specData.stateMachines.Membership.transitions.cancel.from;

export function requireLive(row: MembershipRow, action: string): void {
  if (!canTransition('Membership', row.status, 'cancel')) {
    throw new ApiError(400, 'invalid_state',
      `A membership whose status is ${row.status} has ended and cannot ${action}; allowed from: ${LIVE.join(', ')}`,
      'status', { 'x-should-retry': 'false' });
  }
}
