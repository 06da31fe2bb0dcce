import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { findManageableMembership } from './find-membership.js';
import { requireLive } from './membership-rules.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/uncancel: reverses a scheduled cancellation; the queued job then finds nothing to do. */
export const uncancelMembership: Handler<'uncancelMembership'> = async ({ path }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  requireLive(row, 'have a cancellation reversed');
  if (!row.cancel_at_period_end) {
    throw new ApiError(400, 'invalid_state', 'This membership has no scheduled cancellation to reverse', 'cancel_at_period_end',
      { 'x-should-retry': 'false' });
  }
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ cancel_at_period_end: false, updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.updated', row.account_id, membershipEventData(view));
  return view;
};
