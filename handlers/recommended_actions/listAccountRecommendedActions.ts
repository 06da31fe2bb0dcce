// Written by hand, not declared plain: not a table's rows but actions computed by rules over the account.
import type { Handler } from '../../generated/handler.js';
import { recommendedActions } from './rules.js';

/** GET /accounts/{id}/recommend_actions: the runtime has checked company:basic:read on the account. */
export const listAccountRecommendedActions: Handler<'listAccountRecommendedActions'> = async ({ path }, ctx) =>
  ({ data: await recommendedActions(ctx.db, path.id) });
