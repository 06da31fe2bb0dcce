// Written by hand, not a plain transition: the payment is locked before the case, and escalating queues the platform's review (platform.ts).
import type { Handler } from '../../generated/handler.js';
import { lockOwnedCase, checkAttachments } from './case-steps.js';
import { escalateCase } from './platform.js';

/** POST /resolution_center_cases/{id}/escalate: the merchant asks the platform to decide; its review is queued. */
export const escalateResolutionCenterCase: Handler<'escalateResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row } = await lockOwnedCase(ctx, path.id, ['payment:dispute']);
  return escalateCase(ctx.db, row, { actor: 'merchant', action: 'escalated', message: body.message, attachments: body.attachments });
};
