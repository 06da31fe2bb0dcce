import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { userFor } from './user-view.js';

/** GET /users/{id}: profiles are public to any authenticated caller. Written, not plain: a user belongs to no account
 * (no owner check), and the user themself also sees their wallet, read apart. */
export const retrieveUser: Handler<'retrieveUser'> = async ({ path }, ctx) => {
  const row = await ctx.db('users').where({ id: path.id }).first();
  if (!row) throw notFound('user', path.id, 'id');
  return userFor(ctx.db, row, ctx.principal);
};
