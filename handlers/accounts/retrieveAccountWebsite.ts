import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { selectRows } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

/** GET /accounts/{id}/website: the runtime has checked the account is the caller's to read; an account has at most
 * one website (created with it from blueprint_id). Written, not plain: the path names the account, not the website,
 * and its 404 says why there is none. */
export const retrieveAccountWebsite: Handler<'retrieveAccountWebsite'> = async ({ path }, ctx) => {
  const row = await selectRows(ctx.db, resources.Website).where('account_sites.account_id', path.id)
    .orderBy('account_sites.created_at', 'desc').first();
  if (!row) {
    throw new ApiError(404, 'not_found', `The account '${path.id}' has no website: only an account created with blueprint_id has one`, 'id');
  }
  return resources.Website.view(row);
};
