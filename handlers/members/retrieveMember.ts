import type { Handler } from '../../runtime/handler.js';
import { forbidden, notFound } from '../../runtime/errors.js';
import { memberRows, memberView } from './member-view.js';

/** GET /members/{id}: only a mber_ id; anything else is 404. */
export const retrieveMember: Handler<'retrieveMember'> = async ({ path }, ctx) => {
  const row = path.id.startsWith('mber_') ? await memberRows(ctx.db).where('m.id', path.id).first() : undefined;
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound('member', path.id, 'id');
  if (!held.has('member:basic:read')) throw forbidden(`This credential lacks the member:basic:read permission on ${row.account_id}`);
  return memberView(row);
};
