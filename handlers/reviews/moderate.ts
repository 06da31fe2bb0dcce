// The moderate_review job: asks the moderator (moderator-port.ts) about a pending review and publishes or removes
// it. The review is locked and re-read, so a rerun finds it moderated and does nothing.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { moderator } from './moderator-port.js';

export const MODERATE_TASK = 'moderate_review';

export async function queueModeration(db: Knex, reviewId: string): Promise<void> {
  await addJob(db, MODERATE_TASK, { review_id: reviewId }, { jobKey: `${MODERATE_TASK}:${reviewId}` });
}

/** Moderates one review; its new status, or null when it was already moderated. */
export async function moderateReview(db: Knex, reviewId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const row = await trx('reviews').where({ id: reviewId }).forUpdate().first();
    if (!row || row.status !== 'pending') return null;
    const refused = (await moderator().moderate({ title: row.title, description: row.description })) === 'remove';
    const status = transition('Review', row.status, refused ? 'remove' : 'publish');
    await trx('reviews').where({ id: reviewId })
      .update({ status, published_at: refused ? null : nowMs(trx), updated_at: nowMs(trx) });
    await recordEvent(trx, refused ? 'review.removed' : 'review.published', row.account_id, await readView(trx, resources.Review, reviewId));
    return status;
  });
}

export function reviewTasks(db: Knex): Record<string, Task> {
  return { [MODERATE_TASK]: async (payload) => { await moderateReview(db, (payload as { review_id: string }).review_id); } };
}
