import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { customersOf, resolveResource } from '../permissions/index.js';
import { recordMemberOpened } from '../members/index.js';
import { accessLevel } from './access-level.js';
import { isSelf } from './user-view.js';

/** GET /users/{id}/access/{resource_id}: for the user themself, or a caller who can see the resource's account. The
 * user's own check is them opening the account, recorded on their member row (last_opened_at). */
export const checkUserAccess: Handler<'checkUserAccess'> = async ({ path }, ctx) => {
  const user = await ctx.db('users').where({ id: path.id }).first('id');
  if (!user) throw notFound('user', path.id, 'id');
  const resource = await resolveResource(ctx.db, path.resource_id, 'resource_id');
  const self = isSelf(ctx.principal, user.id);
  if (!self && !(await ctx.access.scopesOn(resource.accountId))) throw notFound(resource.kind.noun, path.resource_id, 'resource_id');
  // The user checking their own access is them opening the account: their member row (if any) records it.
  if (self) await recordMemberOpened(ctx.db, resource.accountId, user.id);

  const access_level = await accessLevel(ctx.db, user.id, resource.accountId, await customersOf(ctx.db, resource));
  return { has_access: access_level !== 'no_access', access_level };
};
