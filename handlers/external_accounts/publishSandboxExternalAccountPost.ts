// Written by hand, not declared plain: locks the external account but creates and answers a post (another resource).
import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { postRow } from './post-row.js';

/** POST /sandbox/external_accounts/{id}/posts: the owner publishes on the sandbox network. The external account's
 * row is locked, so concurrent publishes number their posts one after the other. */
export const publishSandboxExternalAccountPost: Handler<'publishSandboxExternalAccountPost'> = async ({ path, body }, ctx) => {
  const account = await loadOwned(ctx, resources.ExternalAccount, path.id, ['social_account:update'], { read: 'lock' });
  if (account.status !== 'connected') {
    throw new ApiError(400, 'invalid_state', `Only a connected external account publishes; this one is ${account.status}`, 'status');
  }
  const [{ n }] = await ctx.db('external_account_posts').where({ external_account_id: account.id }).count({ n: '*' });
  const number = Number(n) + 1;
  const video = body.video ?? false;
  const [row] = await ctx.db('external_account_posts').insert(postRow({
    id: account.id, account_id: account.account_id, platform: String(account.platform), username: String(account.username),
  }, {
    platform_post_id: `${account.external_id}_${number}`, media_type: video ? 'video' : 'image',
    video_id: video ? `${account.external_id}_v${number}` : null, caption: body.caption,
  }, nowMs(ctx.db))).returning('*');
  return resources.ExternalAccountPost.view(row);
};
