import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { upgradeAssistant } from './upgrade-assistant.js';

/** GET /api_keys/{id}/upgrade_assistant: the changes to target that touch what the key called (./upgrade-assistant.ts).
 * Written, not plain: the answer is computed from the key's logs and the versions' changes, not the key's row. */
export const retrieveUpgradeAssistant: Handler<'retrieveUpgradeAssistant'> = async ({ path, query }, ctx) => {
  const key = await loadOwned(ctx, resources.ApiKey, path.id, ['api_key:read']);
  return upgradeAssistant(ctx.db, { id: key.id as string, api_version_date: key.api_version_date as string | Date | null }, query.target);
};
