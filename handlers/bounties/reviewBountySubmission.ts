// Written by hand, not a plain transition: the move is the body's decision, and an approval pays the reward and may complete the bounty.
import type { Handler } from '../../generated/handler.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { requireOwned } from '../../runtime/ownership.js';
import { transition } from '../../generated/state-machine.js';
import { readRow, readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { endBounty, lockBounty, payReward } from './bounty-ledger.js';

/**
 * POST /bounty_submissions/{id}/review. Lock order: the bounty (which owns the escrow and the slots), then the
 * submission, then the ledger; re-read under the locks, so two approvals of one submission pay once and two
 * approvals racing for the last slot take it once.
 */
export const reviewBountySubmission: Handler<'reviewBountySubmission'> = async ({ path, body }, ctx) => {
  const scopes = ['payout:transfer_funds'];
  const wanted = { noun: 'bounty submission', id: path.id };
  const seen = await requireOwned(ctx.access, await readRow(ctx.db, resources.BountySubmission, path.id), scopes, wanted);
  if (body.decision === 'deny' && body.denial_reason === undefined) throw invalid('denial_reason is required to deny a submission', 'denial_reason');
  if (body.decision === 'approve' && body.denial_reason !== undefined) throw invalid('denial_reason is only for deny', 'denial_reason');
  const bounty = (await lockBounty(ctx.db, seen.bounty_id))!;
  const row = await requireOwned(ctx.access, await readRow(ctx.db, resources.BountySubmission, path.id, 'lock'), scopes, wanted);
  const status = transition('BountySubmission', row.status, body.decision);
  if (body.decision === 'approve') {
    if (bounty.status !== 'open') throw new ApiError(400, 'invalid_state', `The bounty is ${bounty.status}: its escrow pays no more rewards`, 'decision');
    await payReward(ctx.db, bounty, row.id, row.user_id);
  }
  await ctx.db('bounty_submissions').where({ id: row.id }).update({
    status, denial_reason: body.decision === 'deny' ? body.denial_reason : null, resolved_at: nowMs(ctx.db), updated_at: nowMs(ctx.db),
  });
  if (body.decision === 'approve' && Number(bounty.accepted_submissions_count) + 1 === Number(bounty.accepted_submissions_limit)) {
    await endBounty(ctx.db, bounty, 'complete');
    await ctx.emit('bounty.closed', bounty.account_id, await readView(ctx.db, resources.Bounty, bounty.id));
  }
  const view = await readView(ctx.db, resources.BountySubmission, row.id);
  await ctx.emit(body.decision === 'approve' ? 'bounty_submission.approved' : 'bounty_submission.denied', row.account_id, view);
  return view;
};
