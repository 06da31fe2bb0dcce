// end_membership_period: the task scheduled cancellations used to queue, one job per membership. Jobs of it may still
// be queued in existing databases: each runs the membership's period step at its current due_at (period-step.ts),
// which does nothing before that instant. New work never queues it: due_at and the period sweep find memberships.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { membershipPeriodStep } from './period-step.js';

export const END_MEMBERSHIP_PERIOD = 'end_membership_period';

export async function endMembershipPeriod(db: Knex, membershipId: string): Promise<void> {
  const row = await db('memberships').where({ id: membershipId }).first('due_at');
  if (row?.due_at) await membershipPeriodStep(db, membershipId, row.due_at);
}

export function endMembershipPeriodTask(db: Knex): Task {
  return async (payload) => {
    await endMembershipPeriod(db, (payload as { membership_id: string }).membership_id);
  };
}
