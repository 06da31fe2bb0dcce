// Written by hand, not declared plain: the preferences are an account's stored document, not a row with an id of its own.
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadPreferences } from './preferences-store.js';
import { preferencesView } from './preferences-view.js';

/** GET /accounts/{account_id}/preferences: the runtime has already checked visibility and the read scope. Written, not
 * plain: the preferences are no row with an id of their own but an account's stored document, completed from other
 * tables (ads payment methods, the cards balance). */
export const retrieveAccountPreferences: Handler<'retrieveAccountPreferences'> = async ({ path }, ctx) => {
  const account = await ctx.db('accounts').where({ id: path.account_id }).first();
  if (!account) throw notFound('account', path.account_id, 'account_id');
  return preferencesView(ctx.db, account, await loadPreferences(ctx.db, account.id));
};
