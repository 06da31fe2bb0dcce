// The case moves declared plain actions (spec/areas/resolution_center_cases.yaml): the runtime finds the case with
// findOwnedCase (case-steps.ts: the payment locked before the case), the rule moves it through moveCase (timeline
// entry, deadline, event), and the runtime answers the case as it is then. The moves that take attachments stay
// written: their attachments are checked before the case is found.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { moveCase } from './case-steps.js';

/** POST /sandbox/resolution_center_cases/{id}/withdraw: the buyer withdraws the case (outcome withdrawn). */
export const withdraw: ActionHook<'withdrawSandboxResolutionCenterCase'> = async (row, { body }, ctx) => {
  await moveCase(ctx.db, row, 'withdraw', { actor: 'customer', action: 'withdrawn', message: body.message },
    'resolution_center_case.closed', { outcome: 'withdrawn' });
};
