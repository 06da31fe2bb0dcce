import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { requireDestination } from '../deposits/index.js';
import { swapView, type SwapRow } from './swap-view.js';

/** GET /swaps/{id}: an account's with crypto_wallet:trade:read on it; a wallet's by its user's own token. Written, not
 * plain: a plain retrieve sees accounts only, and a swap may be a personal wallet's (user_). */
export const retrieveSwap: Handler<'retrieveSwap'> = async ({ path }, ctx) => {
  const [row] = await query<SwapRow>(ctx.db, 'select * from swaps where id = $1', [path.id]);
  if (!row) throw notFound('swap', path.id, 'id');
  await requireDestination(ctx, row.owner_id, 'crypto_wallet:trade:read', 'id', 'swap', path.id);
  return swapView(row);
};
