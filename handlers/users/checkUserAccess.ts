import type { Handler } from '../../runtime/handler.js';
import { notFound } from '../../runtime/errors.js';
import { accountOfResource } from '../permissions/resource-account.js';
import { recordMemberOpened } from '../members/member-service.js';
import { accessLevel } from './access-level.js';
import { isSelf } from './user-view.js';

/** GET /users/{id}/access/{resource_id}: for the user themself, or a caller who can see the account. The user's own
 * check is them opening the account, recorded on their member row (last_opened_at). */
export const checkUserAccess: Handler<'checkUserAccess'> = async ({ path }, ctx) => {
  const user = await ctx.db('users').where({ id: path.id }).first('id');
  if (!user) throw notFound('user', path.id, 'id');
  // A product answers for its account; an unknown one is 404 through accountOfResource.
  const product = path.resource_id.startsWith('prod_')
    ? await ctx.db('products').where({ id: path.resource_id }).whereNull('deleted_at').first('id', 'account_id')
    : undefined;
  const accountId: string = product ? product.account_id : accountOfResource(path.resource_id, 'resource_id');
  const self = isSelf(ctx.principal, user.id);
  const visible = self ? await ctx.db('accounts').where({ id: accountId }).first('id') : await ctx.access.scopesOn(accountId);
  if (!visible) throw notFound('account', accountId, 'resource_id');
  // The user checking their own access is them opening the account: their member row (if any) records it.
  if (self) await recordMemberOpened(ctx.db, accountId, user.id);

  const access_level = await accessLevel(ctx.db, user.id, accountId, product?.id);
  return { has_access: access_level !== 'no_access', access_level };
};
