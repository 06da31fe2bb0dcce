// Written by hand, not declared plain: money: a payout from the balance through request-payout.ts (ledger holds, rails).
import type { Handler } from '../../generated/handler.js';
import { requestPayout } from './request-payout.js';

/** POST /payouts: a payout from the owner's balance to one of its payout methods (request-payout.ts). */
export const createPayout: Handler<'createPayout'> = async ({ body }, ctx) => (await requestPayout(ctx, body)).view;
