// Written by hand, not declared plain: its attachments are checked before the case is found (a bad one is a 400 even on an unknown or unreachable case), and a plain action finds the row before its hook runs.
import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, moveCase, checkAttachments } from './case-steps.js';

/** POST /resolution_center_cases/{id}/respond: the merchant's message; the case then waits on the customer. */
export const respondToResolutionCenterCase: Handler<'respondToResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return moveCase(ctx.db, row, 'respond', { actor: 'merchant', action: 'responded', message: body.message, attachments: body.attachments },
    'resolution_center_case.updated');
};
