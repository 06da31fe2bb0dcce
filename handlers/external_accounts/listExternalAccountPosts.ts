import type { ListHook } from '../../generated/plain-hooks.js';
import { notFound } from '../../runtime/errors.js';
import { resources } from '../../generated/resources.js';

/** GET /external_accounts/{id}/posts (plain list of the external account's posts): account_id, which the official
 * client sends, must name the external account's account; another is the external account's 404. */
export const listExternalAccountPosts: ListHook<'listExternalAccountPosts'> = (_rows, { account_id: accountId }, _ctx, account) => {
  if (accountId !== undefined && accountId !== account!.account_id) throw notFound(resources.ExternalAccount.noun, account!.id);
};
