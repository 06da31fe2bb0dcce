import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { findManageableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/pause: a paused membership grants no access until resumed, and billing stops: it is never
 * due (due_at null), so nothing is charged, retried, expired or canceled meanwhile. */
export const pauseMembership: Handler<'pauseMembership'> = async ({ path }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  const status = transition('Membership', row.status, 'pause');
  const now = nowMs(ctx.db);
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ status, paused_at: now, due_at: null, updated_at: now }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.paused', row.account_id, membershipEventData(view));
  return view;
};
