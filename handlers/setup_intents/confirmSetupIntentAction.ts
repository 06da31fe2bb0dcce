import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { requireManageable } from '../memberships/readable-rows.js';
import { AUTHENTICATION_FAILED } from './card-outcome.js';
import { applyChange, savedChange } from './save-setup-intent.js';
import { setupIntentView, type SetupIntentRow } from './setup-intent-view.js';

/** POST /setup_intents/{id}/confirm_action: the sandbox's stand-in for the buyer finishing (or failing) 3D Secure.
 * Only a requires_action intent moves (complete_action / fail_action); the state machine refuses anything else. */
export const confirmSetupIntentAction: Handler<'confirmSetupIntentAction'> = async ({ path, body }, ctx) => {
  // Locked: a background save of the same intent waits for this request (and then finds it settled).
  const row: SetupIntentRow | undefined = await ctx.db('setup_intents').where({ id: path.id }).forUpdate().first();
  await requireManageable(ctx, row, 'payment:charge', 'setup intent', path.id);
  const intent = row!;
  if (body.outcome === 'succeed') {
    const saved = await applyChange(ctx.db, intent.id, await savedChange(ctx.db, intent, 'complete_action'));
    await ctx.emit('setup_intent.succeeded', intent.account_id, setupIntentView(saved, false));
    return setupIntentView(saved, true);
  }
  const failed = await applyChange(ctx.db, intent.id, {
    status: transition('SetupIntent', intent.status, 'fail_action'),
    next_action: null,
    last_setup_error: JSON.stringify(AUTHENTICATION_FAILED),
  });
  await ctx.emit('setup_intent.canceled', intent.account_id, setupIntentView(failed, false));
  // The caller holds payment:charge on the account (checked above), so it sees the secret, as on retrieve.
  return setupIntentView(failed, true);
};
