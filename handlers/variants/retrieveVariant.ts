import type { Handler } from '../../runtime/handler.js';
import { loadVariant } from './load-variant.js';
import { variantView } from './variant-view.js';

/** GET /variants/{id} (and the deprecated GET /plans/{id}). */
export const retrieveVariant: Handler<'retrieveVariant'> = async ({ path }, ctx) =>
  variantView(await loadVariant(ctx, path.id, 'plan:basic:read'));
