import type { Handler } from '../../runtime/handler.js';
import { invalid } from '../../runtime/errors.js';
import { findManageableMembership } from './find-membership.js';
import { requireLive } from './membership-rules.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { END_MEMBERSHIP_PERIOD, endPeriodJobKey } from './end-period-task.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/extend: free days move current_period_end (and a scheduled cancellation) forward. */
export const extendMembership: Handler<'extendMembership'> = async ({ path, body }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  requireLive(row, 'be extended');
  if (!row.current_period_end) throw invalid('This membership does not expire (no current_period_end); there is nothing to extend', 'days');
  const [updated] = await ctx.db('memberships').where({ id: row.id }).update({
    current_period_end: ctx.db.raw('current_period_end + make_interval(days => ?)', [body.days]),
    updated_at: nowMs(ctx.db),
  }).returning('*');
  if (updated.cancel_at_period_end) {
    await ctx.addJob(END_MEMBERSHIP_PERIOD, { membership_id: row.id },
      { jobKey: endPeriodJobKey(row.id), runAt: new Date(updated.current_period_end) });
  }
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.extended', row.account_id, membershipEventData(view));
  return view;
};
