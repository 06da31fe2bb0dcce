import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { REVIEW_VERIFICATION, reviewVerification } from './review.js';

export const verificationTasks = (db: Knex): Record<string, Task> => ({
  [REVIEW_VERIFICATION]: async (payload) => reviewVerification(db, (payload as { verification_id: string }).verification_id),
});
