// end_membership_period: at current_period_end, a membership whose cancellation was scheduled is canceled. The job
// re-reads the row, so a reversed cancellation or a period extended since it was queued makes it do nothing.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { recordEvent } from '../../runtime/events.js';
import { canTransition, transition } from '../../runtime/state-machine.js';
import { endMembership } from './membership-service.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';

export const END_MEMBERSHIP_PERIOD = 'end_membership_period';
export const endPeriodJobKey = (membershipId: string) => `${END_MEMBERSHIP_PERIOD}:${membershipId}`;

export async function endMembershipPeriod(db: Knex, membershipId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('memberships').where({ id: membershipId }).forUpdate().first();
    if (!row || !row.cancel_at_period_end || !canTransition('Membership', row.status, 'cancel')) return;
    if (!row.current_period_end || Date.parse(row.current_period_end) > Date.now()) return;
    const ended = await endMembership(trx, row, transition('Membership', row.status, 'cancel'));
    await recordEvent(trx, 'membership.canceled', ended.account_id, membershipEventData(resources.Membership.view(ended)));
  });
}

export function endMembershipPeriodTask(db: Knex): Task {
  return async (payload) => {
    await endMembershipPeriod(db, (payload as { membership_id: string }).membership_id);
  };
}
