// Written by hand, not declared plain: it answers an event's execution record, not a stored row, for the account named by the path (account: path.id).
import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { recommendedActions } from './rules.js';

/** POST /accounts/{id}/recommend_actions/execute: records recommended_action_chain.executed for a chain the caller
 * ran (Events 7: nothing is executed here); only an action recommended now. */
export const executeAccountRecommendedAction: Handler<'executeAccountRecommendedAction'> = async ({ path, body }, ctx) => {
  const action = (await recommendedActions(ctx.db, path.id)).find((a) => a.action === body.action);
  if (!action) throw new ApiError(400, 'invalid_state', `${body.action} is not recommended for account ${path.id} now`, 'action');
  const execution = {
    object: 'recommended_action_chain_execution' as const, account_id: path.id, action: action.action,
    steps: action.steps, executed_at: new Date().toISOString(),
  };
  await ctx.emit('recommended_action_chain.executed', path.id, execution);
  return execution;
};
