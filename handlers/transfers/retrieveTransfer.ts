import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { requireSomeSide } from './transfer-access.js';
import { readTransferRow, transferView } from './transfer-view.js';

/** GET /transfers/{id}: a transfer the caller may read on either side (payout:account:read on an account, or its
 * own wallet; the invited user of an invite is its destination). Written, not plain: a plain retrieve checks one
 * owning account, and a transfer has two sides, either of which may be a user's wallet. */
export const retrieveTransfer: Handler<'retrieveTransfer'> = async ({ path }, ctx) => {
  const row = await readTransferRow(ctx.db, path.id);
  if (!row) throw notFound('transfer', path.id, 'id');
  const sides = [row.origin_id, row.destination_id].filter((s): s is string => s !== null).map((id) => ({ id }));
  await requireSomeSide(ctx.access, sides, 'payout:account:read', { noun: 'transfer', id: path.id, param: 'id' });
  return transferView(row);
};
