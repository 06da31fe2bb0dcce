import type { Handler } from '../../generated/handler.js';
import { loadAccountView, viewOptions } from './account-view.js';

/** GET /accounts/me: the account the calling API key belongs to, in one statement. Written, not plain: there is no
 * id in the path; the credential names the account. */
export const retrieveCurrentAccount: Handler<'retrieveCurrentAccount'> = async (_input, ctx) =>
  (await loadAccountView(ctx.db, ctx.access, ctx.principal.accountId!, viewOptions(ctx)))!;
