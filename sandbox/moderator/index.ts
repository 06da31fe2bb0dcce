// The sandbox moderator: publishes every review except one whose title or description contains REMOVE_MARKER.
import type { Moderator } from '../../handlers/reviews/index.js';

export const REMOVE_MARKER = '[remove]';

export const sandboxModerator: Moderator = {
  async moderate(review) {
    const refused = [review.title, review.description].some((text) => typeof text === 'string' && text.includes(REMOVE_MARKER));
    return refused ? 'remove' : 'publish';
  },
};
