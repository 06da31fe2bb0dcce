// Written by hand, not a plain transition: found by id or license key under the buyer's rules (find-membership.ts), and its event is membershipEventData, not the view.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { clockNow } from '../../runtime/clock.js';
import { findManageableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';
import { voidFailedRenewals } from './renewal-retry.js';

/** POST /memberships/{id}/pause: a paused membership grants no access until resumed, and billing stops: it is due only
 * at the resumes_at it was given (period-step.ts resumes it then), so nothing is charged, retried, expired or
 * canceled meanwhile. void_payments voids its failed renewals. */
export const pauseMembership: Handler<'pauseMembership'> = async ({ path, body }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  const status = transition('Membership', row.status, 'pause');
  const resumesAt = body.resumes_at ?? null;
  if (resumesAt !== null && Date.parse(resumesAt) <= clockNow().getTime()) {
    throw invalid(`resumes_at must be later than now (${clockNow().toISOString()})`, 'resumes_at');
  }
  if (body.void_payments) await voidFailedRenewals(ctx.db, row.id);
  const now = nowMs(ctx.db);
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ status, paused_at: now, resumes_at: resumesAt, due_at: resumesAt, updated_at: now }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.paused', row.account_id, membershipEventData(view));
  return view;
};
