import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import type { Tables } from '../../generated/rows.js';
import { logoFile } from './experience-settings.js';

/** PATCH /experiences/{id}: the fields sent, logo as its file; written (and experience.updated emitted) only when
 * something differs. */
export const updateExperience: Handler<'updateExperience'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Experience, path.id, ['experience:update'], { forUpdate: true });
  const sent: Partial<Tables['experiences']> = {};
  if (body.name !== undefined) sent.name = body.name;
  if (body.is_public !== undefined) sent.is_public = body.is_public;
  if (body.order !== undefined) sent.order = body.order;
  if (body.logo !== undefined) sent.logo_file_id = await logoFile(ctx, body.logo);
  const changed = (Object.keys(sent) as (keyof typeof sent)[]).filter((column) => sent[column] !== row[column]);
  if (!changed.length) return resources.Experience.view(row);
  await ctx.db('experiences').where({ id: row.id }).update({ ...sent, updated_at: nowMs(ctx.db) });
  const view = await readView(ctx.db, resources.Experience, row.id);
  await ctx.emit('experience.updated', row.account_id, view);
  return view;
};
