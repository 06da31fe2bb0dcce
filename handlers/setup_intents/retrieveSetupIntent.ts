import type { Handler } from '../../runtime/handler.js';
import { requireReadable } from '../memberships/readable-rows.js';
import { setupIntentRows, setupIntentView } from './setup-intent-view.js';

/** GET /setup_intents/{id}: client_secret only for the account's payment:charge credential or the buyer's own token. */
export const retrieveSetupIntent: Handler<'retrieveSetupIntent'> = async ({ path }, ctx) => {
  const row = await setupIntentRows(ctx.db).where('si.id', path.id).first();
  await requireReadable(ctx, row, 'payment:basic:read', 'setup intent', path.id);
  const isBuyer = ctx.principal.kind === 'user_token' && row.user_id !== null && row.user_id === ctx.principal.userId;
  return setupIntentView(row, isBuyer || await ctx.access.has(row.account_id, 'payment:charge'));
};
