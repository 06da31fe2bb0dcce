// What the reviews area asks of a moderator: publish a review or remove it. The moderate_review job (moderate.ts)
// asks with the review locked and applies the verdict itself.
import { definePort } from '../../runtime/ports.js';

export interface ReviewText {
  title: string | null;
  description: string | null;
}

export type ModerationVerdict = 'publish' | 'remove';

export interface Moderator {
  moderate(review: ReviewText): Promise<ModerationVerdict>;
}

export const moderator = definePort<Moderator>('review moderator');
