import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { conflict, forbidden, notFound } from '../../runtime/errors.js';
import { isSelf, userFor } from './user-view.js';

const UNIQUE_VIOLATION = '23505';
const USERNAME_INDEX = 'users_username_unique'; // migrations/001

/** PATCH /users/{id}: a user changes their own profile; only the fields sent change. */
export const updateUser: Handler<'updateUser'> = async ({ path, body }, ctx) => {
  const row = await ctx.db('users').where({ id: path.id }).first();
  if (!row) throw notFound('user', path.id, 'id');
  if (!isSelf(ctx.principal, row.id)) throw forbidden('Only the user themself may change their profile');
  if (Object.keys(body).length === 0) return userFor(ctx.db, row, ctx.principal);

  try {
    // The unique index decides username clashes, so two concurrent renames cannot both win.
    const [updated] = await ctx.db('users').where({ id: row.id }).update({ ...body, updated_at: nowMs(ctx.db) }).returning('*');
    return userFor(ctx.db, updated, ctx.principal);
  } catch (e) {
    const err = e as { code?: string; constraint?: string };
    if (err.code === UNIQUE_VIOLATION && err.constraint === USERNAME_INDEX) throw conflict(`The username '${body.username}' is taken`, 'username');
    throw e;
  }
};
