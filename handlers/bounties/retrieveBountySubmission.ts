import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { loadSubmission } from './submission-access.js';

/** GET /bounty_submissions/{id}: its worker, or the bounty's account with company:basic:read. */
export const retrieveBountySubmission: Handler<'retrieveBountySubmission'> = async ({ path }, ctx) =>
  resources.BountySubmission.view(await loadSubmission(ctx, path.id, ['company:basic:read']));
