// Written by hand, not a plain transition: two answers (ended now, shared with the period step, or scheduled without a move) and events of membershipEventData.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { findManageableMembership } from './find-membership.js';
import { endMembership } from './membership-service.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/cancel: now, or scheduled for current_period_end with cancel_at_period_end. A scheduled
 * cancellation needs no job: the membership is already due at its period end (due-at.ts), and its period step
 * cancels instead of renewing (period-step.ts). */
export const cancelMembership: Handler<'cancelMembership'> = async ({ path, body }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  const canceled = transition('Membership', row.status, 'cancel');
  if (!body.cancel_at_period_end) {
    const view = resources.Membership.view(await endMembership(ctx.db, row, canceled));
    await ctx.emit('membership.canceled', row.account_id, membershipEventData(view));
    return view;
  }
  if (!row.current_period_end) {
    throw invalid('This membership has no current_period_end to cancel at; cancel it now instead', 'cancel_at_period_end');
  }
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ cancel_at_period_end: true, updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.updated', row.account_id, membershipEventData(view));
  return view;
};
