// Finishing a setup intent's 3-D Secure step, for POST /setup_intents/{id}/confirm_action and for the buyer on the
// sandbox's authentication page: only a requires_action intent moves (complete_action / fail_action).
import type { Effects } from '../../generated/effects.js';
import { transition } from '../../generated/state-machine.js';
import { AUTHENTICATION_FAILED } from './card-outcome.js';
import { applyChange, savedChange } from './save-setup-intent.js';
import { setupIntentView, type SetupIntentRow } from './setup-intent-view.js';

/** `intent` is locked by the caller. Returns the intent as it now is. */
export async function finishSetupIntentAuthentication(fx: Effects, intent: SetupIntentRow, outcome: 'succeed' | 'fail'): Promise<SetupIntentRow> {
  if (outcome === 'succeed') {
    const saved = await applyChange(fx.db, intent.id, { ...await savedChange(fx.db, intent, 'complete_action'), authentication_token: null });
    await fx.emit('setup_intent.succeeded', intent.account_id, setupIntentView(saved, false));
    return saved;
  }
  const failed = await applyChange(fx.db, intent.id, {
    status: transition('SetupIntent', intent.status, 'fail_action'),
    next_action: null,
    authentication_token: null,
    last_setup_error: JSON.stringify(AUTHENTICATION_FAILED),
  });
  await fx.emit('setup_intent.canceled', intent.account_id, setupIntentView(failed, false));
  return failed;
}
