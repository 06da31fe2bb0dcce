import type { DeleteHook } from '../../generated/plain-hooks.js';

/** DELETE /experiences/{id} (plain soft delete): detached from every product, so no product grants it any more. */
export const deleteExperience: DeleteHook<'deleteExperience'> = async (experience, _input, ctx) => {
  await ctx.db('experience_products').where({ experience_id: experience.id }).delete();
};
