import type { Handler } from '../../generated/handler.js';
import { findPayout } from './find-payout.js';
import { withdrawalView } from './withdrawal-view.js';

/** GET /withdrawals/{id}: a payout in the retired withdrawal shape (the list and create are gone; this still answers).
 * Written, not plain: a payout read as GET /payouts/{id} reads it (a personal wallet's too), in another shape. */
export const retrieveWithdrawal: Handler<'retrieveWithdrawal'> = async ({ path }, ctx) =>
  withdrawalView(await findPayout(ctx, path.id, 'payout:account:read', { noun: 'withdrawal' }));
