// Written by hand, not a plain transition: a wallet's payout is its user's (find-payout.ts), the view carries its method, and the ledger releases the reservation.
import type { Handler } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import { findPayout } from './find-payout.js';
import { payoutView } from './payout-view.js';
import { releasePayout } from './payout-ledger.js';
import { nowMs } from '../shared/now.js';

/** POST /payouts/{id}/cancel: before processing only; the reservation goes back to available. The rail's pending
 * step finds the payout canceled and does nothing. */
export const cancelPayout: Handler<'cancelPayout'> = async ({ path }, ctx) => {
  const payout = await findPayout(ctx, path.id, 'payout:create', { lock: true });
  const status = transition('Payout', payout.status, 'cancel');
  await releasePayout(ctx.db, payout);
  const [row] = await ctx.db('payouts').where({ id: payout.id })
    .update({ status, status_detail: 'Canceled before processing; the amount is available again.', updated_at: nowMs(ctx.db) }).returning('*');
  const view = await payoutView(ctx.db, { ...row, $method: payout.$method });
  await ctx.emit('payout.canceled', payout.account_id, view);
  return view;
};
