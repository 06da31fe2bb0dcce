import type { Handler } from '../../generated/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import { buyerReads } from '../shared/buyer-rows.js';
import { setupIntentRows, setupIntentView } from './setup-intent-view.js';

/** GET /setup_intents/{id}: client_secret only for the account's payment:charge credential or the buyer's own token.
 * Written, not plain: SetupIntent declares no table; its view (./setup-intent-view.ts) is shared with create, the
 * list and the worker, and which caller sees the secret is decided here. */
export const retrieveSetupIntent: Handler<'retrieveSetupIntent'> = async ({ path }, ctx) => {
  const buyer = buyerReads(ctx);
  const found = await setupIntentRows(ctx.db).where('si.id', path.id).first();
  const row = await requireOwned(ctx.access, found, ['payment:basic:read'], { noun: 'setup intent', id: path.id }, buyer);
  return setupIntentView(row, buyer.isOwn(row) || await ctx.access.has(row.account_id, 'payment:charge'));
};
