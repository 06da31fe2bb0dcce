import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadAccountView, viewOptions } from './account-view.js';

/** GET /accounts/{id}: the runtime has already checked the account is visible and readable (the caller's cache);
 * one statement reads it. Written, not plain: an account is its own owner (account: path.id, no account_id column),
 * and its caller's fields (rewards, offers, client_id) come from accountViews, which lists and creates share. */
export const retrieveAccount: Handler<'retrieveAccount'> = async ({ path }, ctx) => {
  const view = await loadAccountView(ctx.db, ctx.access, path.id, viewOptions(ctx));
  if (!view) throw notFound('account', path.id, 'id');
  return view;
};
