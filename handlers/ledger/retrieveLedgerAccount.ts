import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { loadOwned } from '../../runtime/ownership.js';
import { notFound } from '../../runtime/errors.js';
import { isSelf } from '../users/index.js';

/** GET /ledger_accounts/{id}: an account's balance by the account's scopes; a personal wallet by its user's token
 * only (anyone else gets the 404 an unknown id gets: a wallet's existence is the user's business). */
export const retrieveLedgerAccount: Handler<'retrieveLedgerAccount'> = async ({ path }, ctx) => {
  const row = await loadOwned(ctx, resources.LedgerAccount, path.id, ['company:balance:read'], {
    ownRows: { isOwn: (r) => r.kind === 'personal' && isSelf(ctx.principal, r.user_id), own: 'pass' },
  });
  if (row.kind === 'platform') throw notFound('balance', path.id, 'id');
  return resources.LedgerAccount.view(row);
};
