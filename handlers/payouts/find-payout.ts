// One payout for an operation on /payouts/{id} or /withdrawals/{id}: an account's by the scope on it (404 when the
// account is invisible, 403 without the scope), a personal wallet's by its user's own token only (404 otherwise).
import type { HandlerContext } from '../../generated/handler.js';
import { forbidden, notFound } from '../../runtime/errors.js';
import { findPayoutRow, type PayoutRow } from './payout-view.js';
import { mayActOn } from './payout-owner.js';

export async function findPayout(ctx: HandlerContext, id: string, scope: string, options: { lock?: boolean; noun?: string } = {}): Promise<PayoutRow> {
  const row = await findPayoutRow(ctx.db, id, options.lock);
  const may = row ? await mayActOn(ctx, row, scope) : 'hidden';
  if (may === 'hidden') throw notFound(options.noun ?? 'payout', id, 'id');
  if (may === 'forbidden') throw forbidden(`This credential lacks the ${scope} permission on ${row!.account_id}`);
  return row!;
}
