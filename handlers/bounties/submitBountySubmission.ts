import type { Handler } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { lockOwnSubmission } from './submission-access.js';

/** POST /bounty_submissions/{id}/submit: the worker files proof; the submission joins the review queue. */
export const submitBountySubmission: Handler<'submitBountySubmission'> = async ({ path, body }, ctx) => {
  const row = await lockOwnSubmission(ctx, path.id);
  const status = transition('BountySubmission', row.status, 'submit');
  await ctx.db('bounty_submissions').where({ id: row.id }).update({
    status, content: body.content ?? null, deliverable_type: body.deliverable_type,
    deliverable_urls: JSON.stringify(body.deliverable_urls), submitted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db),
  });
  const view = await readView(ctx.db, resources.BountySubmission, row.id);
  await ctx.emit('bounty_submission.submitted', row.account_id, view);
  return view;
};
