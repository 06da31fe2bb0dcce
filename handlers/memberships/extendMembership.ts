import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { findManageableMembership } from './find-membership.js';
import { requireLive } from './membership-rules.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/extend: free days move current_period_end forward, and with it the next timed step (the
 * renewal charge, a scheduled cancellation, an expiry: due_at, due-at.ts). A past_due membership keeps its retry
 * time; paused ones stay not due. */
export const extendMembership: Handler<'extendMembership'> = async ({ path, body }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  requireLive(row, 'be extended');
  if (!row.current_period_end) throw invalid('This membership does not expire (no current_period_end); there is nothing to extend', 'days');
  const moved = ctx.db.raw('current_period_end + make_interval(days => ?)', [body.days]);
  const timed = row.status === 'trialing' || row.status === 'active';
  const [updated] = await ctx.db('memberships').where({ id: row.id }).update({
    current_period_end: moved,
    ...(timed ? { due_at: ctx.db.raw('current_period_end + make_interval(days => ?)', [body.days]) } : {}),
    updated_at: nowMs(ctx.db),
  }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.extended', row.account_id, membershipEventData(view));
  return view;
};
