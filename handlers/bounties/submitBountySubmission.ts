import type { TransitionHook } from '../../generated/plain-hooks.js';

/** POST /bounty_submissions/{id}/submit (plain transition of the worker's own submission): the body's proof is
 * written with the move, which puts the submission in the review queue. */
export const submitBountySubmission: TransitionHook<'submitBountySubmission'> = (_row, { body }) => ({
  set: {
    content: body.content ?? null, deliverable_type: body.deliverable_type, deliverable_urls: JSON.stringify(body.deliverable_urls),
  },
});
