import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, moveCase } from './case-steps.js';

/** POST /sandbox/resolution_center_cases/{id}/withdraw: the buyer withdraws the case (outcome withdrawn). */
export const withdrawSandboxResolutionCenterCase: Handler<'withdrawSandboxResolutionCenterCase'> = async ({ path, body }, ctx) => {
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return moveCase(ctx.db, row, 'withdraw', { actor: 'customer', action: 'withdrawn', message: body.message },
    'resolution_center_case.closed', { outcome: 'withdrawn' });
};
