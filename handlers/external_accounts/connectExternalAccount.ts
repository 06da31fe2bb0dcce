// Written by hand, not declared plain: starts an OAuth connection for the body's account; no stored row is read or answered.
import type { Handler } from '../../generated/handler.js';
import { newConnection } from './oauth-connections.js';

/** POST /external_accounts/connect: the runtime has checked social_account:update on account_id. Nothing is
 * connected yet: the owner's answer on the authorize page creates the external accounts. */
export const connectExternalAccount: Handler<'connectExternalAccount'> = async ({ body }, ctx) =>
  newConnection(ctx.db, {
    account_id: body.account_id, platform: body.platform, scopes: body.scopes ?? [], redirect_url: body.redirect_url ?? null,
  });
