// Written by hand, not declared plain: Transfer is no stored resource (no table:, its sides are accounts or users: transfer-view.ts), and either side's access rules decide (the origin's scope or its user's own token).
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { endClaimLink, lockClaimLink } from './claim-links.js';
import { sideAccess } from './transfer-access.js';
import { readTransferRow } from './transfer-view.js';

const MOVE = 'payout:transfer_funds';

/** POST /transfers/{id}/cancel: the origin ends a pending claim link; what is still held goes back at once. */
export const cancelTransfer: Handler<'cancelTransfer'> = async ({ path }, ctx) => {
  const row = await readTransferRow(ctx.db, path.id);
  if (!row) throw notFound('transfer', path.id, 'id');
  const origin = await sideAccess(ctx.access, row.origin_id, MOVE);
  if (origin === 'invisible') throw notFound('transfer', path.id, 'id');
  if (origin === 'forbidden') await ctx.access.require(row.origin_id, [MOVE]);
  const link = await lockClaimLink(ctx.db, path.id);
  // A balance transfer is no claim link: it cannot be canceled (invalid_state from its completed status).
  return endClaimLink(ctx, link ?? row, 'cancel');
};
