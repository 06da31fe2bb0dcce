// Written by hand, not declared plain: not a table's rows but actions computed by rules over the user and their
// latest accounts.
import type { Handler } from '../../generated/handler.js';
import type { UserRecommendedAction } from '../../generated/types.js';
import { ApiError } from '../../runtime/errors.js';
import { recommendedActions } from './rules.js';
import { personalActions } from './user-rules.js';

/** How many of the user's owned accounts (the most recently created) pool their actions: the read stays bounded. */
const ACCOUNTS = 10;

/** GET /users/{id}/recommend_actions: the caller's own personal actions and their latest owned accounts' actions,
 * highest impact first (a stable sort keeps personal ones, then newer accounts, first on a tie). */
export const listUserRecommendedActions: Handler<'listUserRecommendedActions'> = async ({ path }, ctx) => {
  const userId = ctx.principal.userId!;
  // me and usernames are already ids here (the spec's path aliases).
  if (path.id !== userId) throw new ApiError(403, 'permission_denied', 'Only the user themself may read their recommended actions (use me)', 'id');
  const owned = await ctx.db('accounts').where({ owner_user_id: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(ACCOUNTS).select('id', 'title');
  const data: UserRecommendedAction[] = (await personalActions(ctx.db, userId)).map((a) => ({ account_id: null, account_name: null, ...a }));
  for (const account of owned) {
    for (const a of await recommendedActions(ctx.db, account.id)) data.push({ account_id: account.id, account_name: account.title, ...a });
  }
  return { data: data.sort((a, b) => (b.impact_score ?? 0) - (a.impact_score ?? 0)) };
};
