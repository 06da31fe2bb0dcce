// Written by hand, not declared plain: an account is its own owner (no account_id column for the plain finder; the
// runtime checks `account: path.id`), and its answer adds what the caller decides (rewards, client_id, offers).
import type { Handler } from '../../generated/handler.js';
import { ApiError, notFound } from '../../runtime/errors.js';
import { loadAccountView, viewOptions } from './account-view.js';
import { holdFunds } from './payment-controls.js';

/** POST /sandbox/accounts/{id}/compliance_review: the sandbox's compliance team holds the account's funds. */
export const startComplianceReview: Handler<'startComplianceReview'> = async ({ path }, ctx) => {
  const row = await ctx.db('accounts').where({ id: path.id }).forUpdate().first('id', 'undated_pending_reason');
  if (!row) throw notFound('account', path.id, 'id');
  if (row.undated_pending_reason && row.undated_pending_reason !== 'compliance_review') {
    throw new ApiError(400, 'invalid_state', `The funds of ${row.id} are already held: ${row.undated_pending_reason.replaceAll('_', ' ')}`,
      'payment_controls.undated_pending_reason');
  }
  if (!row.undated_pending_reason) await holdFunds(ctx.db, row.id, 'compliance_review');
  const view = (await loadAccountView(ctx.db, ctx.access, row.id, viewOptions(ctx)))!;
  if (!row.undated_pending_reason) await ctx.emit('account.updated', row.id, view);
  return view;
};
