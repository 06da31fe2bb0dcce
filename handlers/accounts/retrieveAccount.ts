import type { Handler } from '../../runtime/handler.js';
import { notFound } from '../../runtime/errors.js';
import { accountView, viewOptions } from './account-view.js';
import { query } from '../../runtime/request-db.js';

/** GET /accounts/{id}: the runtime has already checked the account is visible and readable. */
export const retrieveAccount: Handler<'retrieveAccount'> = async ({ path }, ctx) => {
  const [row] = await query(ctx.db, 'select * from accounts where id = $1', [path.id]);
  if (!row) throw notFound('account', path.id, 'id');
  return accountView(ctx.db, ctx.access, row, viewOptions(ctx));
};
