import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { findManageableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/resume: paused -> active. A renewal plan starts a new period at the resume, charged at once
 * (as Stripe resumes with the billing cycle anchored at the resume): the period ends now and is due now, so the
 * period sweep's next run charges it (period-step.ts), and its success runs billing_period days from the resume. A
 * one_time grant keeps its period end (due then; at once when it has passed). */
export const resumeMembership: Handler<'resumeMembership'> = async ({ path }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  const status = transition('Membership', row.status, 'resume');
  const now = nowMs(ctx.db);
  const plan = await ctx.db('plans').where({ id: row.plan_id }).first('plan_type');
  const period = plan?.plan_type === 'renewal'
    ? { current_period_start: now, current_period_end: now, due_at: now }
    : { due_at: row.current_period_end };
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ status, paused_at: null, ...period, updated_at: now }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.resumed', row.account_id, membershipEventData(view));
  return view;
};
