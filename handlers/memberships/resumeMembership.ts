import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { findManageableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** POST /memberships/{id}/resume: paused -> active. */
export const resumeMembership: Handler<'resumeMembership'> = async ({ path }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  const status = transition('Membership', row.status, 'resume');
  const now = nowMs(ctx.db);
  const [updated] = await ctx.db('memberships').where({ id: row.id }).update({ status, paused_at: null, updated_at: now }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.resumed', row.account_id, membershipEventData(view));
  return view;
};
