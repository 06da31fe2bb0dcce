import type { Handler } from '../../generated/handler.js';
import { loadVariant } from './load-variant.js';
import { updateVariant as update } from './variant-service.js';

/** PATCH /variants/{id} (and the deprecated PATCH /plans/{id}). */
export const updateVariant: Handler<'updateVariant'> = async ({ path, body }, ctx) =>
  update(ctx, await loadVariant(ctx, path.id, 'plan:update'), body);
