// Written by hand, not declared plain: it makes a new experience (a 201 answering the copy, not the row it loaded), copying its product attachments.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';

/** POST /experiences/{id}/duplicate: a copy in the same account, with the original's settings and product
 * attachments (in their order), in one statement each. */
export const duplicateExperience: Handler<'duplicateExperience'> = async ({ path, body }, ctx) => {
  const original = await loadOwned(ctx, resources.Experience, path.id, ['experience:create']);
  const id = newId('exp_');
  await ctx.db.raw(`insert into experiences (id, account_id, name, is_public, "order", app_id, logo_file_id)
    select ?, account_id, coalesce(?, name), is_public, "order", app_id, logo_file_id from experiences where id = ?`,
  [id, body.name ?? null, original.id]);
  await ctx.db.raw(`insert into experience_products (experience_id, product_id, created_at)
    select ?, ep.product_id, ep.created_at from experience_products ep join products p on p.id = ep.product_id
    where ep.experience_id = ? and p.deleted_at is null`, [id, original.id]);
  const view = await readView(ctx.db, resources.Experience, id);
  await ctx.emit('experience.created', original.account_id as string, view);
  return view;
};
