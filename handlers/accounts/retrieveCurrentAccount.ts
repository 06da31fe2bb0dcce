import type { Handler } from '../../runtime/handler.js';
import { accountView, viewOptions } from './account-view.js';

/** GET /accounts/me: the account the calling API key belongs to. */
export const retrieveCurrentAccount: Handler<'retrieveCurrentAccount'> = async (_input, ctx) => {
  const row = await ctx.db('accounts').where({ id: ctx.principal.accountId! }).first();
  return accountView(ctx.db, ctx.access, row, viewOptions(ctx));
};
