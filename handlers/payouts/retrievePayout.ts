import type { Handler } from '../../generated/handler.js';
import { findPayout } from './find-payout.js';
import { payoutView } from './payout-view.js';

/** GET /payouts/{id}: the payout with its method, in one statement. */
export const retrievePayout: Handler<'retrievePayout'> = async ({ path }, ctx) =>
  payoutView(ctx.db, await findPayout(ctx, path.id, 'payout:account:read'));
