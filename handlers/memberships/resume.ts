// Resuming a paused membership, by POST /memberships/{id}/resume or at the resumes_at its pause named (period-step.ts).
import type { Knex } from 'knex';
import { transition } from '../../generated/state-machine.js';
import type { MembershipRow } from '../../generated/rows.js';
import { nowMs } from '../shared/now.js';
import { recordMembershipEvent } from './membership-service.js';

/**
 * paused -> active. A renewal plan starts a new period at the resume, charged at once (as Stripe resumes with the
 * billing cycle anchored at the resume): the period ends now and is due now, so the period step charges it, and its
 * success runs billing_period days from the resume. A one_time grant keeps its period end (due then; at once when it
 * has passed). Records membership.resumed.
 */
export async function resumeMembershipRow(db: Knex, row: MembershipRow): Promise<MembershipRow> {
  const status = transition('Membership', row.status, 'resume');
  const now = nowMs(db);
  const plan = await db('plans').where({ id: row.plan_id }).first('plan_type');
  const period = plan?.plan_type === 'renewal'
    ? { current_period_start: now, current_period_end: now, due_at: now }
    : { due_at: row.current_period_end };
  const [updated] = await db('memberships').where({ id: row.id })
    .update({ status, paused_at: null, resumes_at: null, ...period, updated_at: now }).returning('*');
  await recordMembershipEvent(db, 'membership.resumed', updated);
  return updated;
}
