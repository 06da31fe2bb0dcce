import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { cryptoDepositView, type DepositRow } from './crypto-deposits.js';
import { requireDestination } from './destination.js';

/** GET /crypto_deposits/{id}: an account's with company:balance:read on it; a wallet's by its user's own token. Written, not
 * plain: a plain retrieve sees accounts only, and a deposit may belong to a personal wallet (user_). */
export const retrieveCryptoDeposit: Handler<'retrieveCryptoDeposit'> = async ({ path }, ctx) => {
  const [row] = await query<DepositRow>(ctx.db, 'select * from crypto_deposits where id = $1', [path.id]);
  if (!row) throw notFound('crypto deposit', path.id, 'id');
  await requireDestination(ctx, row.owner_id, 'company:balance:read', 'id', 'crypto deposit', path.id);
  return cryptoDepositView(row);
};
