import type { Handler } from '../../generated/handler.js';
import { findPayout } from './find-payout.js';
import { payoutView } from './payout-view.js';

/** GET /payouts/{id}: the payout with its method, in one statement. Written, not plain: a payout may be a personal
 * wallet's (no account: its user's own token only), a cofr_ id names it too, and its method's view asks the rails. */
export const retrievePayout: Handler<'retrievePayout'> = async ({ path }, ctx) =>
  payoutView(ctx.db, await findPayout(ctx, path.id, 'payout:account:read'));
