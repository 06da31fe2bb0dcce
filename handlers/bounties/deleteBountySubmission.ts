import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { nowMs } from '../shared/now.js';
import { lockOwnSubmission } from './submission-access.js';

/** DELETE /bounty_submissions/{id}: the worker withdraws an attempt (soft delete); an approved one was paid and stays. */
export const deleteBountySubmission: Handler<'deleteBountySubmission'> = async ({ path }, ctx) => {
  const row = await lockOwnSubmission(ctx, path.id);
  if (row.status === 'approved') throw new ApiError(400, 'invalid_state', 'An approved submission was paid and cannot be deleted', 'id');
  await ctx.db('bounty_submissions').where({ id: row.id }).update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  return { id: row.id, deleted: true };
};
