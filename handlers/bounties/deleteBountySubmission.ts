import type { DeleteHook } from '../../generated/plain-hooks.js';
import { ApiError } from '../../runtime/errors.js';

/** DELETE /bounty_submissions/{id} (plain soft delete of the worker's own attempt): an approved one was paid and
 * stays. */
export const deleteBountySubmission: DeleteHook<'deleteBountySubmission'> = (row) => {
  if (row.status === 'approved') throw new ApiError(400, 'invalid_state', 'An approved submission was paid and cannot be deleted', 'id');
};
