// Written by hand, not declared plain: the rows of the accounts where the scope is held plus a user token's own
// (shared/buyer-rows.ts), viewed without their client secret (setup-intent-view.ts).
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereReadable } from '../shared/buyer-rows.js';
import { setupIntentRows, setupIntentView, type SetupIntentRow } from './setup-intent-view.js';

/** GET /setup_intents: every readable setup intent, newest first; client_secret is never shown on list rows. */
export const listSetupIntents: Handler<'listSetupIntents'> = async ({ query }, ctx) => {
  const q = setupIntentRows(ctx.db);
  await whereReadable(ctx, q, 'payment:basic:read', { account: 'si.account_id', user: 'si.user_id' }, query.account_id);
  if (query.status) q.where('si.status', query.status);
  if (query.created_after) q.where('si.created_at', '>', query.created_after);
  if (query.created_before) q.where('si.created_at', '<', query.created_before);
  const { rows, page_info } = await paginate<SetupIntentRow>(q, query, {
    sortColumn: 'si.created_at', idColumn: 'si.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map((row) => setupIntentView(row, false)), page_info };
};
