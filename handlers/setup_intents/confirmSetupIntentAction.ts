// Written by hand, not declared plain: SetupIntent is no stored resource (no table:); its view is written
// (setup-intent-view.ts, the client_secret the caller may see) and its events carry the view without the secret.
import type { Handler } from '../../generated/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import { buyerCannotManage } from '../shared/buyer-rows.js';
import { finishSetupIntentAuthentication } from './authentication.js';
import { setupIntentView, type SetupIntentRow } from './setup-intent-view.js';

/** POST /setup_intents/{id}/confirm_action: the sandbox's stand-in for the buyer finishing (or failing) 3D Secure. */
export const confirmSetupIntentAction: Handler<'confirmSetupIntentAction'> = async ({ path, body }, ctx) => {
  // Locked: a background save of the same intent waits for this request (and then finds it settled).
  const row: SetupIntentRow | undefined = await ctx.db('setup_intents').where({ id: path.id }).forUpdate().first();
  await requireOwned(ctx.access, row, ['payment:charge'], { noun: 'setup intent', id: path.id },
    buyerCannotManage(ctx, 'setup intent', 'payment:charge'));
  // The caller holds payment:charge on the account (checked above), so it sees the secret, as on retrieve.
  return setupIntentView(await finishSetupIntentAuthentication(ctx, row!, body.outcome), true);
};
