// The rules of the operations on one bounty declared plain actions (spec/areas/bounties.yaml): the runtime finds and
// locks the bounty with the owner rules, runs the rule, answers the bounty as it is then and records the event.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { endBounty } from './bounty-ledger.js';

/** POST /bounties/{id}/close: the bounty leaves open; its open attempts are denied and its leftover escrow returned
 * (endBounty, shared with completion). */
export const close: ActionHook<'closeBounty'> = async (bounty, _input, ctx) => {
  await endBounty(ctx.db, bounty, 'close');
};
