// Written by hand, not declared plain: its attachments are checked before the case is found (a bad one is a 400 even on an unknown or unreachable case), and a plain action finds the row before its hook runs.
import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, checkAttachments } from './case-steps.js';
import { escalateCase } from './platform.js';

/** POST /resolution_center_cases/{id}/escalate: the merchant asks the platform to decide; its review is queued. */
export const escalateResolutionCenterCase: Handler<'escalateResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return escalateCase(ctx.db, row, { actor: 'merchant', action: 'escalated', message: body.message, attachments: body.attachments });
};
