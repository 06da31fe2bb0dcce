// Written by hand, not a plain transition: the payment is locked before the case, and a move adds a timeline entry and keeps the deadline job (moveCase).
import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, moveCase, checkAttachments } from './case-steps.js';

/** POST /resolution_center_cases/{id}/close: the merchant ends a case whose buyer has its answer (outcome closed). */
export const closeResolutionCenterCase: Handler<'closeResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return moveCase(ctx.db, row, 'close', { actor: 'merchant', action: 'closed', message: body.message, attachments: body.attachments },
    'resolution_center_case.closed', { outcome: 'closed' });
};
