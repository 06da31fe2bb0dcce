// Written by hand, not declared plain: queues the connect job against the sandbox network (insert-external-account.ts).
import type { Handler } from '../../generated/handler.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { insertExternalAccount } from './insert-external-account.js';

/** POST /external_accounts: the runtime has checked social_account:update on account_id. The account starts
 * connecting; the connect_external_account job asks the sandbox network about the handle. */
export const createExternalAccount: Handler<'createExternalAccount'> = async ({ body }, ctx) => {
  const id = await insertExternalAccount(ctx, {
    account_id: body.account_id, platform: body.platform, username: body.username, scopes: body.scopes ?? [],
    parent_external_account_id: body.parent_external_account_id ?? null,
  });
  return readView(ctx.db, resources.ExternalAccount, id);
};
