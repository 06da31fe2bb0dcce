import type { ListHook } from '../../generated/plain-hooks.js';

/** GET /experiences (plain list): product_id narrows to the experiences attached to it. */
export const listExperiences: ListHook<'listExperiences'> = (rows, { product_id }) => {
  if (product_id === undefined) return;
  rows.whereExists((q) => q.select(1).from('experience_products as ep')
    .whereRaw('ep.experience_id = experiences.id').where('ep.product_id', product_id));
};
