// Written by hand, not declared plain: its attachments are checked before the case is found (a bad one is a 400 even on an unknown or unreachable case), and a plain action finds the row before its hook runs.
import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, moveCase, checkAttachments } from './case-steps.js';

/** POST /sandbox/resolution_center_cases/{id}/reply: the buyer answers; the merchant has a fresh response_due_at. */
export const replySandboxResolutionCenterCase: Handler<'replySandboxResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return moveCase(ctx.db, row, 'reply', { actor: 'customer', action: 'replied', message: body.message, attachments: body.attachments },
    'resolution_center_case.updated');
};
