import type { Handler } from '../../generated/handler.js';
import type { SetupIntentStatus } from '../../generated/types.js';
import { requireOwned } from '../../runtime/ownership.js';
import { buyerReads } from '../shared/buyer-rows.js';
import { setupIntentNextAction } from '../shared/authentication-link.js';

/** GET /setup_intents/{id}/status: the setup intent's state alone, with GET /setup_intents/{id}'s access rules.
 * Written, not plain: it answers SetupIntentStatus, a part of the setup intent that is no stored resource. */
export const retrieveSetupIntentStatus: Handler<'retrieveSetupIntentStatus'> = async ({ path }, ctx) => {
  const found = await ctx.db('setup_intents').where({ id: path.id })
    .first('id', 'account_id', 'user_id', 'status', 'next_action', 'last_setup_error', 'updated_at');
  const row = await requireOwned(ctx.access, found, ['payment:basic:read'], { noun: 'setup intent', id: path.id }, buyerReads(ctx));
  return {
    id: row.id,
    status: row.status as SetupIntentStatus['status'],
    next_action: setupIntentNextAction(row) as SetupIntentStatus['next_action'],
    last_setup_error: row.last_setup_error ?? null,
    updated_at: row.updated_at,
  };
};
