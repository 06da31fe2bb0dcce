// Written by hand, not declared plain: an account is its own owner (no account_id column for the plain finder; the
// runtime checks `account: path.id`), and its answer adds what the caller decides (rewards, client_id, offers).
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadAccountView, viewOptions } from './account-view.js';
import { releaseFunds } from './payment-controls.js';

/** POST /sandbox/accounts/{id}/compliance_review/resolve: the sandbox's compliance team releases the account. */
export const resolveComplianceReview: Handler<'resolveComplianceReview'> = async ({ path }, ctx) => {
  const row = await ctx.db('accounts').where({ id: path.id }).forUpdate().first('id');
  if (!row) throw notFound('account', path.id, 'id');
  const released = await releaseFunds(ctx.db, row.id, 'compliance_review');
  const view = (await loadAccountView(ctx.db, ctx.access, row.id, viewOptions(ctx)))!;
  if (released) await ctx.emit('account.updated', row.id, view);
  return view;
};
