import type { Handler } from '../../runtime/handler.js';
import { loadManagedKey } from './managed-key.js';
import { apiKeyView } from './api-key-view.js';

/** GET /api_keys/{id} */
export const retrieveApiKey: Handler<'retrieveApiKey'> = async ({ path }, ctx) => {
  return apiKeyView(await loadManagedKey(ctx, path.id, 'api_key:read'));
};
