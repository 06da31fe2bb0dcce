// The rules of the operations on one membership (plain actions and a transition, spec/areas/memberships.yaml): the
// runtime finds and locks the membership by mem_ id or license key under the buyer's rules (find-membership.ts),
// runs the rule, and answers the membership as it is then. Events store membershipEventData (no license key), not
// the view, so each is recorded by the rule's after step rather than by a declared `emits`.
import type { ActionHook, TransitionHook } from '../../generated/plain-hooks.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { clockNow } from '../../runtime/clock.js';
import { mergeMetadata } from '../../runtime/metadata.js';
import { nowMs } from '../shared/now.js';
import { membershipEventData } from './membership-events.js';
import { endMembership } from './membership-service.js';
import { requireLive } from './membership-rules.js';
import { voidFailedRenewals } from './renewal-retry.js';
import { resumeMembershipRow } from './resume.js';

/** PATCH /memberships/{id}: metadata merges key by key (null removes a key); {} clears it. Without metadata nothing
 * is written and nothing recorded; with it membership.updated is recorded even when nothing differs. */
export const update: ActionHook<'updateMembership'> = async (row, { body }, ctx) => {
  if (body.metadata === undefined) return;
  const metadata = Object.keys(body.metadata).length === 0 ? {} : mergeMetadata(row.metadata, body.metadata);
  await ctx.db('memberships').where({ id: row.id }).update({ metadata: JSON.stringify(metadata), updated_at: nowMs(ctx.db) });
  return { after: (view) => ctx.emit('membership.updated', row.account_id, membershipEventData(view)) };
};

/** POST /memberships/{id}/cancel: now, or scheduled for current_period_end with cancel_at_period_end. A scheduled
 * cancellation needs no job: the membership is already due at its period end (due-at.ts), and its period step
 * cancels instead of renewing (period-step.ts). */
export const cancel: ActionHook<'cancelMembership'> = async (row, { body }, ctx) => {
  const canceled = transition('Membership', row.status, 'cancel');
  if (!body.cancel_at_period_end) {
    await endMembership(ctx.db, row, canceled);
    return { after: (view) => ctx.emit('membership.canceled', row.account_id, membershipEventData(view)) };
  }
  if (!row.current_period_end) {
    throw invalid('This membership has no current_period_end to cancel at; cancel it now instead', 'cancel_at_period_end');
  }
  await ctx.db('memberships').where({ id: row.id }).update({ cancel_at_period_end: true, updated_at: nowMs(ctx.db) });
  return { after: (view) => ctx.emit('membership.updated', row.account_id, membershipEventData(view)) };
};

/** POST /memberships/{id}/uncancel: reverses a scheduled cancellation; the queued job then finds nothing to do. */
export const uncancel: ActionHook<'uncancelMembership'> = async (row, _input, ctx) => {
  requireLive(row, 'have a cancellation reversed');
  if (!row.cancel_at_period_end) {
    throw new ApiError(400, 'invalid_state', 'This membership has no scheduled cancellation to reverse', 'cancel_at_period_end',
      { 'x-should-retry': 'false' });
  }
  await ctx.db('memberships').where({ id: row.id }).update({ cancel_at_period_end: false, updated_at: nowMs(ctx.db) });
  return { after: (view) => ctx.emit('membership.updated', row.account_id, membershipEventData(view)) };
};

/** POST /memberships/{id}/extend: free days move current_period_end forward, and with it the next timed step (the
 * renewal charge, a scheduled cancellation, an expiry: due_at, due-at.ts). A past_due membership keeps its retry
 * time; paused ones stay not due. */
export const extend: ActionHook<'extendMembership'> = async (row, { body }, ctx) => {
  requireLive(row, 'be extended');
  if (!row.current_period_end) throw invalid('This membership does not expire (no current_period_end); there is nothing to extend', 'days');
  const moved = () => ctx.db.raw('current_period_end + make_interval(days => ?)', [body.days]);
  const timed = row.status === 'trialing' || row.status === 'active';
  await ctx.db('memberships').where({ id: row.id })
    .update({ current_period_end: moved(), ...(timed ? { due_at: moved() } : {}), updated_at: nowMs(ctx.db) });
  return { after: (view) => ctx.emit('membership.extended', row.account_id, membershipEventData(view)) };
};

/** POST /memberships/{id}/pause (the move's rule; paused_at is stamped): a paused membership grants no access until
 * resumed, and billing stops: it is due only at the resumes_at it was given (period-step.ts resumes it then), so
 * nothing is charged, retried, expired or canceled meanwhile. void_payments voids its failed renewals. */
export const pause: TransitionHook<'pauseMembership'> = async (row, { body }, ctx) => {
  const resumesAt = body.resumes_at ?? null;
  if (resumesAt !== null && Date.parse(resumesAt) <= clockNow().getTime()) {
    throw invalid(`resumes_at must be later than now (${clockNow().toISOString()})`, 'resumes_at');
  }
  if (body.void_payments) await voidFailedRenewals(ctx.db, row.id);
  return {
    set: { resumes_at: resumesAt, due_at: resumesAt },
    after: (view) => ctx.emit('membership.paused', row.account_id, membershipEventData(view)),
  };
};

/** POST /memberships/{id}/resume: paused -> active, a new period from now; the move and its membership.resumed are
 * shared with the period step (resume.ts). */
export const resume: ActionHook<'resumeMembership'> = async (row, _input, ctx) => {
  await resumeMembershipRow(ctx.db, row);
};
