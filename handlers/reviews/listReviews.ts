import type { ListHook } from '../../runtime/plain/hooks.js';

/** GET /reviews (plain list): min_stars and max_stars are inclusive bounds, as the official client has them. */
export const listReviews: ListHook<'listReviews'> = (rows, { min_stars, max_stars }) => {
  if (min_stars !== undefined) rows.where('reviews.stars', '>=', min_stars);
  if (max_stars !== undefined) rows.where('reviews.stars', '<=', max_stars);
};
